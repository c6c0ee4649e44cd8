import PhotoGridCatalog
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem

/// The caches a run of photogrid uses besides memory: the disk cache of tier images, and the
/// watch on the kernel's memory pressure that halves the memory cache.
package enum Caches {
    /// The disk cache, unless turned off or impossible (no HOME, a read-only disk): then none,
    /// and photogrid simply decodes every time.
    /// `identity` names the pictures of photos that are not files (`DiskTierStore.identity`).
    package static func tierStore(_ options: Options, identity: (@Sendable (Photo, TileRequest) -> [UInt8]?)? = nil) -> DiskTierStore? {
        tierStoreOrProblem(options, identity: identity).store
    }

    /// The same, and when the cache was asked for and cannot be had, why, in words for the
    /// status line: "disk cache off: /home/me/.cache/photogrid cannot be written (Permission denied)".
    package static func tierStoreOrProblem(_ options: Options, identity: (@Sendable (Photo, TileRequest) -> [UInt8]?)? = nil)
        -> (store: DiskTierStore?, problem: String?) {
        guard options.diskCacheMegabytes > 0 else { return (nil, nil) }
        guard let directory = DiskCache.defaultDirectory(environment: Environment.values(Environment.cacheNames)) else {
            return (nil, "disk cache off: no HOME or XDG_CACHE_HOME to keep it in")
        }
        guard let cache = DiskCache(directory: directory, limitBytes: options.diskCacheMegabytes * 1024 * 1024) else {
            return (nil, "disk cache off: \(directory) cannot be written (\(FileReader.lastError()))")
        }
        return (DiskTierStore(cache: cache, identity: identity), nil)
    }

    /// The catalog (`Catalog`): beside the disk cache, or in memory with `--no-disk-cache` or
    /// where the cache's folder cannot be had. It is cache, so `--read-only` writes it too. When
    /// the file cannot be opened, one in memory, and why in words for the status line.
    package static func catalog(_ options: Options) -> (catalog: Catalog?, problem: String?) {
        let environment = Environment.values(Environment.cacheNames)
        if options.diskCacheMegabytes > 0, let directory = DiskCache.defaultDirectory(environment: environment) {
            do {
                _ = DiskCache.makeDirectories(directory)
                return (try Catalog(directory: directory), nil)
            } catch {
                return (try? Catalog(path: nil), "catalog in memory: \(directory)/\(Catalog.fileName) cannot be opened (\(error))")
            }
        }
        return (try? Catalog(path: nil), nil)
    }

    /// Halves the memory budget when the system runs short, as the iOS apps empty caches on a memory
    /// warning; the pipeline then plans for the smaller budget instead of remaking what it lost.
    /// PHOTOGRID_MEMORY_EVENTS names the cgroup v2 `memory.events` file to watch, for a process
    /// limited by a cgroup other than its own (a container's parent); the memory benchmark points
    /// it at a file of its own and raises its `high` count to cause a halving.
    static func watchPressure(on cache: @escaping @Sendable () -> TileCache?) -> MemoryPressureWatcher {
        var sources = MemoryPressureWatcher.Sources.system()
        if let path = PhotoGrid.environment(["PHOTOGRID_MEMORY_EVENTS"])["PHOTOGRID_MEMORY_EVENTS"] {
            sources = MemoryPressureWatcher.Sources(cgroupEventsPath: path)
        }
        return MemoryPressureWatcher(sources: sources) { _ in
            guard let cache = cache() else { return }
            cache.halveBudget()
            Allocator.fit(budget: cache.limitBytes)
        }
    }

    /// The absolute, link-free form of a path, so that disk cache keys are the same from
    /// wherever photogrid is started; the path as given when it cannot be resolved.
    static func absolute(_ path: String) -> String {
        RawPath(path).resolved?.description ?? path
    }
}
