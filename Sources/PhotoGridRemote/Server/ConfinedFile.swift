import Glibc
import PhotoGridCore

/// A photo file opened for serving, checked after opening to lie inside the served folder.
///
/// The second wall around the folder (the first is `GalleryIndex`). The index left out links that
/// led outside when the server started, but a file can be swapped for such a link later. So the
/// check is made on the open descriptor, whose path the kernel reports in `/proc/self/fd`: no
/// rename between the check and the read can change which file is read. Everything served is read
/// through the descriptor held here.
final class ConfinedFile: Sendable {
    /// Why a file cannot be served.
    enum Failure: Error, Equatable {
        /// Gone, not a regular file, or outside the folder: all look the same from outside.
        case notFound
        case unreadable(String)
    }

    let size: Int
    let inode: UInt64
    /// Nanoseconds since the epoch.
    let modified: Int64
    /// The descriptor, or -1 once handed over to a `NIOFileHandle` (which then closes it).
    private let descriptor: Locked<Int32>

    /// Larger files are not served: no photo needs more, and a rendition reads the whole file.
    static let limit = FileReader.defaultLimit

    init(_ path: RawPath, inside root: RawPath) throws(Failure) {
        // O_NONBLOCK: a FIFO that slipped in must not hang a worker; O_NOCTTY: nor may a tty.
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { throw .notFound }
            throw .unreadable(GalleryIndex.lastError())
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= ConfinedFile.limit,
              ConfinedFile.isInside(descriptor: fd, path: path, root: root) else {
            close(fd)
            throw .notFound
        }
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
        modified = FileStatus(info).modified
        descriptor = Locked(fd)
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { close(fd) }
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
        let wanted = max(0, min(count, size))
        var failure: Failure? = nil
        // Uninitialised: zeroing megabytes only to overwrite them is wasted time.
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, filled in
            filled = 0
            while filled < wanted {
                let n = pread(fd, buffer.baseAddress! + filled, wanted - filled, off_t(filled))
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    failure = .unreadable(GalleryIndex.lastError())
                    return
                }
                if n == 0 { return }                 // shrank since fstat: what there is
                filled += n
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Whether the open file lies below `root`. The kernel's name for the descriptor is read when
    /// /proc is there; without it, the path is resolved again, which leaves a window between
    /// the open and the check but is still right for every link made before the request.
    private static func isInside(descriptor fd: Int32, path: RawPath, root: RawPath) -> Bool {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { out in
            out.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(fd)", $0.baseAddress!, $0.count - 1) }
        }
        guard length > 0, length < buffer.count - 1 else { return GalleryIndex.isInside(path, root: root) }
        return GalleryIndex.isBelow(RawPath(Array(buffer[..<length])), root: root)
    }
}
