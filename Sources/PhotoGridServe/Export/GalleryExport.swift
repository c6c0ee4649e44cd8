import GalleryFormats
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// `photogrid export DIR OUT`: the gallery `photogrid serve DIR` serves, as plain files that any
/// static web server, object store or CDN serves as they are, in the layout `--url` reads:
///
///     OUT/manifest.json              the manifest (docs/remote-gallery.md), with its template
///     OUT/renditions/ID/SIZE.jpg     each photo at each size, made here
///     OUT/originals/ID               a copy of each photo
///
/// Incremental: each file is given its photo's mtime, and one whose mtime (and, for a copy, size)
/// is still its photo's is kept. An export cut short leaves OUT serving the previous one: files
/// go in whole (written aside, renamed into place), new ones before the manifest, the manifest
/// last, and files the new manifest no longer names are deleted only after it is in place.
package struct GalleryExport {
    package struct Configuration: Sendable {
        package var folder: String
        package var output: String
        package var sizes: [Int] = [256, 512, 1024, 2048]
        /// Every file made again, kept or not (after a change in how renditions are made).
        package var force = false
        package var workers = WorkerThreads.cores

        package init(folder: String, output: String) {
            self.folder = folder
            self.output = output
        }
    }

    package struct Summary: Sendable, Equatable {
        package var photos = 0
        /// Photos whose files were written, kept as they were, or left out for a reason.
        package var made = 0
        package var kept = 0
        package var failed: [Failure] = []
        /// Files of an earlier export the new one no longer names, deleted.
        package var removed = 0
    }

    package struct Failure: Sendable, Equatable {
        package var id: String
        package var reason: String
    }

    package enum ExportError: Error, Equatable, CustomStringConvertible {
        case serve(GalleryServer.ServeError)
        case overlaps(String)
        case notAnExport(String)
        case cannotWrite(String, String)
        case invalid(String)

        /// The exit status, as `ServeError.status`: an output that cannot be one is the
        /// command line's mistake (2), a failed write is not (1).
        package var status: Int32 {
            switch self {
            case .serve(let error): return error.status
            case .overlaps, .notAnExport, .invalid: return 2
            case .cannotWrite: return 1
            }
        }

        package var description: String {
            switch self {
            case .serve(let error): return error.description
            case .overlaps(let why): return why
            case .notAnExport(let folder):
                return "\(folder) is not empty and holds no photogrid export (no manifest.json): choose a new or empty folder"
            case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
            case .invalid(let why): return why
            }
        }
    }

    /// What one photo came to.
    enum Outcome: Sendable {
        case made(Manifest.Details)
        case kept(Manifest.Details)
        case failed(String)
    }

    static let manifestName = "manifest.json"

    let configuration: Configuration
    let index: GalleryIndex
    let sizes: [Int]
    /// OUT, resolved.
    let output: RawPath

    /// Checks everything before anything is written: the folder is read (names, no contents),
    /// OUT is made if missing, and neither lies inside the other.
    package init(_ configuration: Configuration) throws(ExportError) {
        self.configuration = configuration
        var serve = GalleryServer.Configuration(folder: configuration.folder)
        serve.renditionSizes = configuration.sizes
        do throws(GalleryServer.ServeError) {
            sizes = try serve.validated()
            index = try GalleryIndex(folder: configuration.folder)
        } catch {
            throw .serve(error)
        }
        let given = RawPath(configuration.output)
        // photogrid never writes into the folders it shows, and an export inside its own folder
        // would be exported again the next time: checked before OUT is made, on where it would be.
        let planned = GalleryExport.resolvedAsFarAsItExists(given)
        if planned == index.root || GalleryIndex.isBelow(planned, root: index.root) {
            throw .overlaps("\(configuration.output) is inside \(configuration.folder): photogrid writes nothing there; choose a folder outside it")
        }
        if GalleryIndex.isBelow(index.root, root: planned) {
            throw .overlaps("\(configuration.folder) is inside \(configuration.output): choose an output folder that does not hold the photos")
        }
        guard given.makeDirectories(permissions: 0o755), let output = given.resolved else {
            throw .cannotWrite(configuration.output, SystemError.lastMessage())
        }
        // Made since the check (a link created meanwhile would show here): checked again.
        if output != planned { throw .cannotWrite(configuration.output, "it changed while it was made") }
        // Only a folder that is empty or an earlier export is written to: the clean-up at the end
        // deletes what the manifest does not name, which must never be someone's own files.
        let names = DirectoryEntry.names(in: output) ?? []
        if !names.isEmpty && !names.contains(Array(GalleryExport.manifestName.utf8)) {
            throw .notAnExport(configuration.output)
        }
        self.output = output
    }

    /// `path` with links resolved as far as it exists, and the rest, not yet made, after that:
    /// where OUT will be.
    static func resolvedAsFarAsItExists(_ path: RawPath) -> RawPath {
        var rest: [[UInt8]] = []
        var existing = path
        while existing.resolved == nil, existing.bytes != [UInt8(ascii: "/")], existing.bytes != [UInt8(ascii: ".")] {
            rest.insert(existing.lastComponent.bytes, at: 0)
            existing = existing.parent
        }
        var result = existing.resolved ?? existing
        for component in rest where component != [UInt8(ascii: ".")] {
            result = component == [UInt8(ascii: "."), UInt8(ascii: ".")] ? result.parent : result.appending(component)
        }
        return result
    }

    package var photoCount: Int { index.entries.count }
    /// Photos linked from outside the folder, left out as `serve` leaves them out.
    package var excludedCount: Int { index.excluded }

    /// Exports, calling `progress` (from worker threads, never two at once) as photos are done.
    package func run(progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws(ExportError) -> Summary {
        let entries = index.entries
        let outcomes = Locked<[Outcome?]>(Array(repeating: nil, count: entries.count))
        let done = Locked(0)
        JoinableThread.forEach(entries.count, threads: configuration.workers) { [self] i in
            let outcome = export(entries[i])
            outcomes.withLock { $0[i] = outcome }
            done.withLock { count in
                count += 1
                progress(count, entries.count)
            }
        }

        var summary = Summary(photos: entries.count)
        var kept: [GalleryIndex.Entry] = [], details: [Manifest.Details] = []
        for (entry, outcome) in zip(entries, outcomes.withLock { $0 }) {
            switch outcome {
            case .made(let found)?:
                summary.made += 1
                kept.append(entry)
                details.append(found)
            case .kept(let found)?:
                summary.kept += 1
                kept.append(entry)
                details.append(found)
            case .failed(let reason)?:
                summary.failed.append(Failure(id: entry.id, reason: reason))
            case nil:
                summary.failed.append(Failure(id: entry.id, reason: "not exported"))
            }
        }
        let sections = index.sections.filter { section in kept.contains { $0.section == section } }
        let manifest = Manifest.document(title: index.title, sections: sections, entries: kept, details: details, sizes: sizes)
        let manifestPath = output.appending(Array(GalleryExport.manifestName.utf8))
        do throws(AtomicFile.Failure) {
            // The same manifest is not written again: an export with nothing new changes no file
            // (a sync to an object store or CDN after it sends nothing).
            if (try? FileReader.read(manifestPath)) != manifest {
                try AtomicFile.write(manifest, to: manifestPath, permissions: 0o644)
            }
        } catch {
            switch error {
            case .cannotCreate(let reason), .failed(let reason): throw .cannotWrite(manifestPath.description, reason.description)
            }
        }
        summary.removed = removeStale(keeping: kept)
        return summary
    }

    /// One photo's files, made where missing or older than the photo; its details for the
    /// manifest, read from its head as `serve` reads them.
    func export(_ entry: GalleryIndex.Entry) -> Outcome {
        let file: ConfinedFile
        do throws(ConfinedFile.Failure) { file = try ConfinedFile(entry.file, inside: index.root, limit: .max) } catch {
            switch error {
            case .notFound: return .failed("gone, or no longer inside the folder")
            case .unreadable(let reason): return .failed(reason)
            }
        }
        let original = originalPath(entry)
        let renditions = sizes.map { (size: $0, path: renditionPath(entry, size: $0)) }
        func upToDate(_ path: RawPath, size: Int? = nil) -> Bool {
            guard !configuration.force, let status = path.linkStatus(), status.isRegular else { return false }
            return status.modified == file.modified && (size == nil || status.size == size)
        }
        // A video has no renditions: its original is there for a player.
        let missing = entry.photo.format.isVideo ? [] : renditions.filter { !upToDate($0.path) }
        let copyOriginal = !upToDate(original, size: file.size)
        let details = Manifest.details(of: entry, in: file)
        if missing.isEmpty && !copyOriginal { return .kept(details) }
        // Copies are made in memory; a photo is never this large, a long video may be.
        guard file.size <= ConfinedFile.limit else { return .failed("larger than \(ConfinedFile.limit >> 20) MB: not copied") }
        let data: [UInt8]
        do throws(ConfinedFile.Failure) { data = try file.readAll() } catch {
            if case .unreadable(let reason) = error { return .failed(reason) }
            return .failed("gone")
        }
        let made: [Int: [UInt8]]
        do throws(DecodeError) {
            made = missing.isEmpty ? [:] : try Rendition.makeAll(from: data, longSides: missing.map(\.size))
        } catch {
            return .failed(error.description)
        }
        var writes = missing.compactMap { target in made[target.size].map { (target.path, $0) } }
        if copyOriginal { writes.append((original, data)) }
        for (path, bytes) in writes {
            guard path.parent.makeDirectories(permissions: 0o755) else { return .failed("cannot make \(path.parent): \(SystemError.lastMessage())") }
            do throws(AtomicFile.Failure) {
                try AtomicFile.write(bytes, to: path, permissions: 0o644, modified: file.modified)
            } catch {
                switch error {
                case .cannotCreate(let reason), .failed(let reason): return .failed("cannot write \(path): \(reason)")
                }
            }
        }
        return .made(details)
    }

    func originalPath(_ entry: GalleryIndex.Entry) -> RawPath {
        output.appending(Array("originals/".utf8) + Array(entry.id.utf8))
    }

    func renditionPath(_ entry: GalleryIndex.Entry, size: Int) -> RawPath {
        output.appending(Array("renditions/".utf8) + Array(entry.id.utf8) + Array("/\(size).jpg".utf8))
    }
}
