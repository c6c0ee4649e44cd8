import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Finds the image files below a folder: recursive, in natural order (`NaturalOrder`), hidden
/// files and folders skipped unless asked for, symbolic links followed but never round a loop
/// (each folder is entered once, by its device and inode). A folder reached both directly and
/// through a link is shown under its own path: links to folders are followed only after every
/// folder reached without one.
package struct FolderScanner {
    package var maxDepth = 64
    /// Names starting with a dot too.
    package var showHidden = false
    /// What a photogrid killed mid-write left in the folders (`AtomicFile.isLeftover`) is removed
    /// on the way: the interactive grid's readings, unless `--read-only`; never `serve`'s or a
    /// benchmark's, which write nothing in the folder.
    package var removesLeftovers = false
    /// Told every 256 photos found how many there are so far, with a way to have them (in the
    /// order they will have, but for folders reached through links, which come last).
    package var progress: ((_ count: Int, _ photos: () -> [Photo]) -> Void)?
    /// Where the folder scanned lies below the gallery's (a folder read again alone, `FolderWatch`):
    /// the photos' paths start with it.
    package var relativeRoot = RawPath([])

    package init() {}

    package enum ScanError: Error, CustomStringConvertible {
        case notFound(String), notAFolder(String), unreadable(String, String)
        package var description: String {
            switch self {
            case .notFound(let p): return "\(p): no such file or folder"
            case .notAFolder(let p): return "\(p): not a folder"
            case .unreadable(let p, let why): return "\(p): cannot read (\(why))"
            }
        }
        /// The path given is not there, or not a folder: the command line's fault (exit status 2),
        /// not a failure while running.
        package var isUsage: Bool {
            switch self {
            case .notFound, .notAFolder: return true
            case .unreadable: return false
            }
        }
    }

    /// The photos below `root`, in natural order. Throws only when `root` itself cannot be read.
    package func scan(_ root: RawPath) throws -> [Photo] {
        var leftOut = LeftOut()
        return try scan(root, leftOut: &leftOut)
    }

    /// The same, with what could not be taken in (`LeftOut`): folders it cannot enter, folders
    /// past `maxDepth` (from 1: a photo's own folder, read without its subfolders, is no loss).
    package func scan(_ root: RawPath, leftOut: inout LeftOut) throws -> [Photo] {
        guard let info = root.status() else {
            throw SystemError.lastWasNotFound ? ScanError.notFound(root.description) : ScanError.unreadable(root.description, FileReader.lastError())
        }
        guard info.isDirectory else { throw ScanError.notAFolder(root.description) }
        guard DirectoryEntry.canList(root) else { throw ScanError.unreadable(root.description, FileReader.lastError()) }
        var visited = Set<FileID>()
        var photos: [Photo] = []
        var links: [Folder] = []
        walk(Folder(path: root, relative: relativeRoot, info: info, depth: 0), visited: &visited, links: &links, into: &photos, leftOut: &leftOut)
        // Photos are found in natural order (`walk`), but for those of folders reached through
        // links, walked last: only then is the list sorted.
        guard !links.isEmpty else { return photos }
        while !links.isEmpty {
            walk(links.removeFirst(), visited: &visited, links: &links, into: &photos, leftOut: &leftOut)
        }
        return NaturalOrder.sorted(photos) { $0.relativePath.bytes }
    }

    /// Whether the photo at `a` comes before the one at `b` (paths below the gallery) in the
    /// scanner's order: a folder's photos before its subfolders, each in natural order.
    package static func precedes(_ a: RawPath, _ b: RawPath) -> Bool {
        let left = a.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let right = b.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for i in 0..<min(left.count, right.count) where left[i] != right[i] {
            let leftIsFile = i == left.count - 1, rightIsFile = i == right.count - 1
            if leftIsFile != rightIsFile { return leftIsFile }
            let order = NaturalOrder.compare(left[i], right[i])
            return order != 0 ? order < 0 : left[i].lexicographicallyPrecedes(right[i])
        }
        return left.count < right.count
    }

    private struct Folder { let path: RawPath; let relative: RawPath; let info: FileStatus; let depth: Int }

    private struct FileID: Hashable { let device: UInt64; let inode: UInt64 }

    /// Photos of `folder` and the folders below it; folders reached through a link are left in
    /// `links` for later.
    private func walk(_ folder: Folder, visited: inout Set<FileID>, links: inout [Folder], into photos: inout [Photo],
                      leftOut: inout LeftOut) {
        let id = FileID(device: folder.info.device, inode: folder.info.inode)
        guard folder.depth <= maxDepth else {
            if maxDepth > 0 { leftOut.deeper(than: maxDepth) }
            return
        }
        guard visited.insert(id).inserted else { return }
        // In natural order, the folder's photos before its subfolders: photos are found in the
        // order they are shown, so the first screen is known before the whole tree is read.
        guard let all = DirectoryEntry.names(in: folder.path) else {
            leftOut.cannotRead(folder.relative.description, because: FileReader.lastError())
            return
        }
        // What a photogrid killed mid-write left here (a sidecar or a copy half made) goes; the
        // file it was to become is whole or as it was (`AtomicFile`, `FileMove`).
        for name in all where removesLeftovers && name.first == UInt8(ascii: ".") && AtomicFile.isLeftover(name) {
            AtomicFile.removeLeftover(folder.path.appending(name))
        }
        let names = all.filter { (showHidden || $0.first != UInt8(ascii: ".")) && !AtomicFile.isLeftover($0) }
            .sorted {
                let order = NaturalOrder.compare($0[...], $1[...])
                return order != 0 ? order < 0 : $0.lexicographicallyPrecedes($1)
            }
        var subfolders: [Folder] = []
        for name in names {
            let path = folder.path.appending(name)
            let relativePath = folder.relative.appending(name)
            // stat, not lstat: a link to a photo or folder counts as what it points at.
            guard let entry = path.status() else {
                // A dangling link or a file we may not look at: keep image files, so their tile says why.
                let photo = Photo(path: path, relativePath: relativePath)
                if photo.format != .notAnImage { photos.append(photo) }
                continue
            }
            switch entry.kind {
            case .directory:
                let sub = Folder(path: path, relative: relativePath, info: entry, depth: folder.depth + 1)
                let isLink = path.linkStatus()?.kind == .symbolicLink
                if isLink { links.append(sub) } else { subfolders.append(sub) }
            case .regular:
                // A name that says nothing (no extension, or one no picture has): the first
                // bytes say. One small read, only for files not already known as pictures.
                var format = ImageFormat(fileExtension: path.lowercasedExtension)
                if format == .notAnImage, entry.size >= 8, let head = try? OpenFile(path).head(16) {
                    format = ImageFormat(content: head) ?? .notAnImage
                }
                if format != .notAnImage {
                    photos.append(Photo(path: path, relativePath: relativePath, fileSize: entry.size, format: format, stamp: FileStamp(entry)))
                    if photos.count % 256 == 0 { progress?(photos.count) { photos } }
                }
            default: break
            }
        }
        for sub in subfolders { walk(sub, visited: &visited, links: &links, into: &photos, leftOut: &leftOut) }
    }
}
