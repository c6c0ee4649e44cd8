import Glibc

/// Reads whole files. Read-only by construction: nothing here can write.
public enum FileReader {
    /// Larger files are refused before reading: no photo needs more.
    public static let defaultLimit = 512 * 1024 * 1024

    /// The whole file, or with `prefix` only its first `prefix` bytes.
    public static func read(_ path: RawPath, limit: Int = defaultLimit, prefix: Int? = nil) throws(DecodeError) -> [UInt8] {
        // O_NONBLOCK: a FIFO or device that slipped in must not block a worker.
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { throw .unreadable(lastError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(lastError()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable("not a regular file") }
        guard Int(info.st_size) <= limit else { throw .tooLarge }
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), prefix ?? Int.max))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(lastError())
            }
            if n == 0 { break }                    // shrank while we read: decode what there is
            filled += n
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return bytes
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
