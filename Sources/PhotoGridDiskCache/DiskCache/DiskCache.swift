import PhotoGridModel
import PhotoGridSystem

/// Small thumbnail files kept between runs, so that a second look at a folder starts fast.
///
/// It stores opaque payload bytes under a key (`DiskCacheKey`): for what is made from a photo, its
/// path, size and modification time and a variant name ("t64", "t512"), so a photo that changes
/// gets a new key and misses (`FileKey`). Each key hashes to a file name,
/// `<dir>/ab/ab…(32 hex digits)`, spread over 256 subfolders so that no folder grows huge. Each
/// file carries its full key (see `DiskCacheRecord`), so a collision or a damaged file reads as a
/// miss and is deleted.
///
/// Several worker threads, and several photogrid processes, may use one directory at once.
/// Files are written under a temporary name and renamed into place, so a reader sees a whole old
/// file, a whole new one, or none. The only shared state in memory is a running byte total, which
/// decides when to trim; the file operations themselves need no lock.
///
/// This directory is the only place photogrid writes to.
package final class DiskCache: Sendable {
    struct State {
        /// Approximate bytes on disk; nil until the first write needs it, so that start-up never
        /// waits for a directory scan.
        var total: Int?
        /// Bytes this instance has written, ever. A scan notes it at its start; what was written
        /// while the scan ran is added afterwards, so those bytes are not lost from `total`.
        var written = 0
        /// One trim at a time per instance; a writer that finds one running leaves it the work.
        var trimming = false
        /// Part of each temporary file's name, with the pid and a random number.
        var serial: UInt64 = 0
    }

    package let directory: String
    package let limitBytes: Int
    /// A stray temporary file's age is counted on it.
    let clock: any Clock
    let state: Locked<State>

    /// Trimming stops at this fraction of the limit, so that it does not run again at once.
    static let trimTarget = 0.8
    /// Temporary files this old are strays of a process that died while writing.
    static let strayAge: Int64 = 60 * 1_000_000_000

    /// Nil when caching cannot work: the directory cannot be created (with its parents, mode
    /// 0700) or written, or `limitBytes` is not positive. photogrid then simply runs uncached.
    /// Unless `checked` is false: then the directory is made by the first write (as a missing
    /// subfolder is), and a cache that cannot be written only ever misses. For a cache read
    /// before anything is written to it: a second visit's HTTP cache, where the check was a
    /// tenth of the time to the first screen's tiles.
    package init?(directory: String, limitBytes: Int, checked: Bool = true, clock: any Clock = SystemClock()) {
        self.clock = clock
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard !trimmed.isEmpty, limitBytes > 0 else { return nil }
        self.directory = trimmed
        self.limitBytes = limitBytes
        state = Locked(State())
        guard !checked || (DiskCache.makeDirectories(trimmed) && canWrite(in: trimmed)) else { return nil }
    }

    /// Where the cache lives: `$XDG_CACHE_HOME/photogrid`, else `$HOME/.cache/photogrid`.
    /// The XDG spec says a relative `XDG_CACHE_HOME` is invalid and must be ignored; a relative
    /// `HOME` is refused too, since the cache would move with the working directory.
    package static func defaultDirectory(environment: [String: String]) -> String? {
        func under(_ base: String, _ rest: String) -> String {
            var base = base
            while base.hasSuffix("/") { base.removeLast() }
            return base + "/" + rest
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return under(xdg, "photogrid") }
        if let home = environment["HOME"], home.hasPrefix("/") { return under(home, ".cache/photogrid") }
        return nil
    }

    /// The payload stored for `key`, or nil on a miss. A damaged entry, or one holding another
    /// key, is deleted. A hit becomes the most recently used entry.
    package func read(_ key: some DiskCacheKey) -> [UInt8]? {
        let path = RawPath(entryPath(for: key))
        // noFollow: only our own files are read, never what a planted link points at.
        guard let file = try? FileDescriptor.open(path, .read, options: [.noFollow, .untrusted]) else { return nil }
        return file.closing { file -> [UInt8]? in
            // Larger than the limit: written by a process with a larger limit, perhaps. Not read,
            // and not deleted either; trimming judges it like any other entry.
            guard let status = try? file.status(), status.isRegular, status.size <= limitBytes else { return nil }
            guard let bytes = try? file.read(upTo: status.size), bytes.count == status.size,
                  let payload = DiskCacheRecord.decode(bytes, expecting: key) else {
                DiskCache.discard(path, opened: status)
                return nil
            }
            // The mtime is the "last used" time trimming sorts by: atime cannot be trusted, since
            // most systems mount with relatime or noatime.
            file.touch()
            return payload
        }
    }

    /// Stores `payload` for `key`, replacing what was there. Best effort: a full disk or a
    /// vanished directory costs the entry, never an error. An entry larger than the whole limit
    /// is not kept.
    package func write(_ key: some DiskCacheKey, _ payload: [UInt8]) {
        let record = DiskCacheRecord.encode(key, payload: payload)
        guard record.count <= limitBytes else { return }
        let name = key.hashName
        let folder = directory + "/" + String(name.prefix(2))
        // The subfolder is made on the first failure rather than checked on every write.
        guard let (temporary, file) = createTemporary(in: folder)
                ?? (DiskCache.makeDirectories(folder) ? createTemporary(in: folder) : nil) else { return }
        let written = (try? file.writeAll(record)) != nil
        // close can report a delayed write error (NFS, quota): the file must not go in then.
        let closed = (try? file.close()) != nil
        guard written, closed, (try? temporary.rename(to: RawPath(folder + "/" + name))) != nil else {
            temporary.remove()
            return
        }
        noteWritten(record.count)
    }

    /// Deletes the entry for `key`, if there is one.
    package func remove(_ key: some DiskCacheKey) {
        RawPath(entryPath(for: key)).remove()
    }

    /// The file an entry lives in, whether it exists or not.
    package func entryPath(for key: some DiskCacheKey) -> String {
        let name = key.hashName
        return directory + "/" + String(name.prefix(2)) + "/" + name
    }
}
