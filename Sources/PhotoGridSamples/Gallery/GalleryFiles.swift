import Glibc
import PhotoGridCore

/// The file operations the gallery writer needs, on plain POSIX calls like the rest of photogrid
/// (no Foundation). The only place in PhotoGridSamples that touches the file system.
enum GalleryFiles {
    /// A file operation that failed, with the path and the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Creates the directory unless it is already there.
    static func makeDirectory(_ path: String) throws(Failure) {
        if mkdir(path, 0o755) == 0 { return }
        let error = errno
        var info = stat()
        if error == EEXIST, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        throw Failure(path: path, reason: reason(error))
    }

    /// The names in a directory, without "." and "..".
    static func list(_ path: String) throws(Failure) -> [String] {
        guard let dir = opendir(path) else { throw Failure(path: path, reason: reason(errno)) }
        defer { closedir(dir) }
        return DirectoryEntry.names(dir).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    package static func remove(_ path: String) throws(Failure) {
        if unlink(path) != 0 { throw Failure(path: path, reason: reason(errno)) }
    }

    /// Writes the whole file, replacing what was there.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: path, reason: reason(errno)) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = errno
                close(fd)
                throw Failure(path: path, reason: reason(error))
            }
            written += n
        }
        if close(fd) != 0 { throw Failure(path: path, reason: reason(errno)) }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
