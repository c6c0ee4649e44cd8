import Glibc

/// Reads files. Read-only by construction: nothing here can write.
package enum FileReader {
    /// Larger files are refused before reading: no photo needs more.
    package static let defaultLimit = 512 * 1024 * 1024

    /// The whole file, or with `prefix` only its first `prefix` bytes.
    package static func read(_ path: RawPath, limit: Int = defaultLimit, prefix: Int? = nil) throws(DecodeError) -> [UInt8] {
        let file = try OpenFile(path, limit: limit)
        if let prefix { return try file.head(prefix) }
        return try file.all()
    }

    static func lastError() -> String { SystemError.lastMessage() }
}

/// A photo file held open: its first bytes can be read, and then, only if needed, the rest,
/// without reading anything twice.
package final class OpenFile {
    private let fd: Int32
    package let size: Int
    private var bytes: [UInt8] = []

    package init(_ path: RawPath, limit: Int = FileReader.defaultLimit) throws(DecodeError) {
        // O_NONBLOCK: a FIFO or device that slipped in must not block a worker.
        fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else {
            let error = FileReader.lastError()
            // A link whose file is missing is broken, not a file that went away.
            var own = stat()
            if errno == ENOENT, path.withCString({ lstat($0, &own) }) == 0 { throw .unreadable("broken link") }
            throw .unreadable(error)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { close(fd); throw .unreadable(FileReader.lastError()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { close(fd); throw .unreadable("not a regular file") }
        guard Int(info.st_size) <= limit else { close(fd); throw .tooLarge }
        size = Int(info.st_size)
    }

    deinit { close(fd) }

    /// The open descriptor, for a decoder that reads the file itself.
    package func withDescriptor<T, E: Error>(_ body: (Int32) throws(E) -> T) throws(E) -> T { try body(fd) }

    /// The first `count` bytes (fewer if the file is shorter).
    package func head(_ count: Int) throws(DecodeError) -> [UInt8] {
        try fill(to: min(count, size))
        return Array(bytes.prefix(count))
    }

    /// The whole file: what `head` read is not read again.
    package func all() throws(DecodeError) -> [UInt8] {
        try fill(to: size)
        return bytes
    }

    /// Reads on from where the last read stopped until `target` bytes are in.
    private func fill(to target: Int) throws(DecodeError) {
        guard bytes.count < target else { return }
        var filled = bytes.count
        // Uninitialised space: zeroing megabytes only to overwrite them costs a millisecond a photo.
        var grown = [UInt8](unsafeUninitializedCapacity: target) { buffer, count in
            bytes.withUnsafeBytes { old in
                if let base = old.baseAddress, !old.isEmpty {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: base, byteCount: old.count)
                }
            }
            count = target
        }
        var failure: DecodeError? = nil
        grown.withUnsafeMutableBytes { buffer in
            while filled < target {
                let n = Glibc.pread(fd, buffer.baseAddress! + filled, target - filled, off_t(filled))
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    failure = .unreadable(FileReader.lastError())
                    return
                }
                if n == 0 { break }                    // shrank while we read: decode what there is
                filled += n
            }
        }
        if let failure { throw failure }
        if filled < grown.count { grown.removeSubrange(filled...) }
        bytes = grown
    }
}
