import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A photo file opened for serving, checked after opening to lie inside the served folder.
///
/// The second wall around the folder (the first is `GalleryIndex`). The index left out links that
/// led outside when the server started, but a file can be swapped for such a link later. So the
/// check is made on the open descriptor, whose path the kernel reports in `/proc/self/fd`: no
/// rename between the check and the read can change which file is read. Everything served is read
/// through the descriptor held here.
final class ConfinedFile: Sendable {
    /// Why a file cannot be served.
    package enum Failure: Error, Equatable {
        /// Gone, not a regular file, or outside the folder: all look the same from outside.
        case notFound
        case unreadable(String)
    }

    let size: Int
    let inode: UInt64
    /// Nanoseconds since the epoch.
    let modified: Int64
    /// The descriptor, or -1 once taken to send the file (whoever took it closes it).
    private let descriptor: Locked<Int32>

    /// Larger files are not served: no photo needs more, and a rendition reads the whole file.
    static let limit = FileReader.defaultLimit

    /// `limit`: larger files are not found; `.max` for what is sent as it is (an original, a
    /// video), never read into memory.
    init(_ path: RawPath, inside root: RawPath, limit: Int = ConfinedFile.limit) throws(Failure) {
        // untrusted: a FIFO that slipped in must not hang a worker, nor may a tty become ours.
        let file: FileDescriptor
        do throws(SystemError) { file = try FileDescriptor.open(path, .read, options: .untrusted) } catch {
            if error.isNotFound || error.isNotDirectory || error.isLink { throw .notFound }
            throw .unreadable(error.description)
        }
        guard let status = try? file.status(), status.isRegular, status.size <= limit,
              ConfinedFile.isInside(file, path: path, root: root) else {
            try? file.close()
            throw .notFound
        }
        size = status.size
        inode = status.inode
        modified = status.modified
        descriptor = Locked(file.raw)
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { try? FileDescriptor(raw: fd).close() }
    }

    /// The descriptor, to be closed by the caller from now on; nil if already taken.
    func takeDescriptor() -> Int32? {
        descriptor.withLock { fd in
            defer { fd = -1 }
            return fd >= 0 ? fd : nil
        }
    }

    /// The whole file, read through the descriptor: at most `size` bytes (what fstat saw).
    func readAll() throws(Failure) -> [UInt8] { try head(size) }

    /// The first `count` bytes, fewer if the file is shorter.
    func head(_ count: Int) throws(Failure) -> [UInt8] {
        let fd = descriptor.withLock { $0 }
        guard fd >= 0 else { throw .unreadable("file handed over") }
        do throws(SystemError) {
            // Fewer bytes only if the file shrank since it was opened: what there is.
            return try FileDescriptor(raw: fd).read(upTo: max(0, min(count, size)))
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// The last `count` bytes, fewer if the file is shorter.
    func tail(_ count: Int) throws(Failure) -> [UInt8] {
        let fd = descriptor.withLock { $0 }
        guard fd >= 0 else { throw .unreadable("file handed over") }
        let length = max(0, min(count, size))
        do throws(SystemError) {
            return try FileDescriptor(raw: fd).read(upTo: length, at: size - length)
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// Whether the open file lies below `root`. The kernel's name for the descriptor is read when
    /// /proc is there; without it, the path is resolved again, which leaves a window between
    /// the open and the check but is still right for every link made before the request.
    private static func isInside(_ file: FileDescriptor, path: RawPath, root: RawPath) -> Bool {
        guard let opened = file.kernelPath else { return GalleryIndex.isInside(path, root: root) }
        return GalleryIndex.isBelow(opened, root: root)
    }
}
