import Glibc

/// Writes a file whole or not at all: into a hidden temporary file in the same folder, flushed to
/// the disk, then renamed over the old one (a rename within a file system is atomic in POSIX).
enum AtomicFile {
    /// nil when written; else why not, with nothing left behind.
    static func write(_ bytes: [UInt8], to path: RawPath, mode: mode_t?) -> Sidecar.Problem? {
        // ".photo.jpg.xmp.photogrid-1234-5": hidden, so a file manager or the grid reading the
        // folder meanwhile does not show it. Made with open(O_EXCL) rather than mkstemp, so that a
        // new file gets what any new file gets, 0666 less the umask (mkstemp's is 0600).
        let folder = path.parent.bytes.isEmpty ? [] : path.parent.bytes + [UInt8(ascii: "/")]
        var temporary = path, fd: Int32 = -1
        for attempt in 0..<100 {
            temporary = RawPath(folder + Array(".".utf8) + path.lastComponent.bytes + Array(".photogrid-\(getpid())-\(attempt)".utf8))
            fd = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666) }
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { return .folderNotWritable(FileReader.lastError()) }
        func fail() -> Sidecar.Problem {
            let reason = FileReader.lastError()
            close(fd)
            _ = temporary.withCString { unlink($0) }
            return .failed(reason)
        }
        // A sidecar written again keeps its permissions.
        if let mode { guard fchmod(fd, mode) == 0 else { return fail() } }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return fail() }
            written += count
        }
        guard fsync(fd) == 0 else { return fail() }
        close(fd)
        let renamed = temporary.withCString { from in path.withCString { to in rename(from, to) } }
        guard renamed == 0 else {
            let reason = FileReader.lastError()
            _ = temporary.withCString { unlink($0) }
            return .failed(reason)
        }
        return nil
    }
}
