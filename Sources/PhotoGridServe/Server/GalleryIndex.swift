import GalleryFormats
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The photos a gallery server may serve: the JPEGs the folder scan found, under ids made of their
/// paths below the folder, and nothing else.
///
/// This is the first of the two walls around the served folder (the other is `ConfinedFile`):
/// requests name photos by id, and an id is only ever looked up here, never joined to a path.
/// Photos reached through a link that leads out of the folder are left out at start-up.
struct GalleryIndex: Sendable {
    /// One served photo.
    struct Entry: Sendable {
        let photo: Photo
        /// The photo's file (a served folder's photos are all files).
        let file: RawPath
        /// The path below the folder, as the manifest carries it.
        let id: String
        /// `id` percent-encoded, `/` kept: how it appears in URLs.
        let encodedID: String
        /// The first folder below the served one; nil for photos at its top.
        let section: String?
    }

    /// The served folder with every link resolved: what photos must lie under.
    let root: RawPath
    /// The folder's own name.
    let title: String
    /// Photos at the top of the folder first, then each subfolder's: the scan sorts by path, which
    /// would scatter the top folder's photos between the subfolders, and a client showing
    /// sections wants each in one piece.
    let entries: [Entry]
    let sections: [String]
    /// Photos left out: links leading out of the folder or nowhere, and the rare id that two
    /// names share (names that are not UTF-8 lose bytes when they become JSON strings).
    let excluded: Int
    private let positions: [[UInt8]: Int]

    init(folder: String) throws(GalleryServer.ServeError) {
        guard let root = RawPath(folder).resolved else {
            throw SystemError.lastWasNotFound ? .folderNotFound(folder) : .folderUnreadable(folder, GalleryIndex.lastError())
        }
        let photos: [Photo]
        do {
            photos = try FolderScanner().scan(root)
        } catch FolderScanner.ScanError.notAFolder {
            throw .notAFolder(folder)
        } catch {
            throw .folderUnreadable(folder, "\(error)")
        }
        self.root = root
        title = root.bytes == [UInt8(ascii: "/")] ? "/" : root.lastComponent.description

        var top: [Entry] = [], below: [Entry] = [], sections: [String] = []
        var seen = Set<[UInt8]>(), excluded = 0
        // Pictures, and videos (their originals, for a player; no renditions), as the grid shows both.
        for photo in photos where photo.format.isDecoded || photo.format.isVideo {
            guard let file = photo.file, GalleryIndex.isInside(file, root: root) else {
                excluded += 1
                continue
            }
            let id = photo.relativePath.description
            // Keyed by UTF-8 bytes, not by String: Swift compares strings by canonical
            // equivalence, and "é" composed and decomposed are two different files here.
            guard seen.insert(Array(id.utf8)).inserted else {
                excluded += 1
                continue
            }
            let components = photo.relativePath.bytes.split(separator: UInt8(ascii: "/"))
            let section = components.count > 1 ? String(decoding: components[0], as: UTF8.self) : nil
            let entry = Entry(photo: photo, file: file, id: id, encodedID: RemoteURL.percentEncode(path: id), section: section)
            if let section {
                if sections.last != section { sections.append(section) }
                below.append(entry)
            } else {
                top.append(entry)
            }
        }
        entries = top + below
        self.sections = sections
        self.excluded = excluded
        var positions: [[UInt8]: Int] = [:]
        for (index, entry) in entries.enumerated() { positions[Array(entry.id.utf8)] = index }
        self.positions = positions
    }

    /// The photo whose id is exactly these bytes.
    func entry(id: [UInt8]) -> Entry? { positions[id].map { entries[$0] } }

    /// Whether `path`, with every link resolved, lies below `root` (itself resolved).
    /// A path that does not resolve (a dangling link) is not inside anything.
    static func isInside(_ path: RawPath, root: RawPath) -> Bool {
        guard let real = path.resolved else { return false }
        return isBelow(real, root: root)
    }

    /// Whether `path` is strictly below `root`, both already resolved: `root` + `/` must lead it,
    /// so that `/photos-private` is not taken for a part of `/photos`.
    static func isBelow(_ path: RawPath, root: RawPath) -> Bool {
        let prefix = root.bytes.last == UInt8(ascii: "/") ? root.bytes : root.bytes + [UInt8(ascii: "/")]
        return path.bytes.count > prefix.count && path.bytes.starts(with: prefix)
    }


    package static func lastError() -> String { SystemError.lastMessage() }
}
