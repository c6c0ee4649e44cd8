import Glibc

/// The system calls under `DiskCache`: folders, temporary files, whole reads and writes.
extension DiskCache {
    /// Temporary files start with this, which no entry name (hex digits only) can.
    static let temporaryPrefix = ".tmp-"

    /// `mkdir -p` with mode 0700, as the XDG spec asks for a cache directory: thumbnails show
    /// what is in someone's photos. True if `path` is a directory at the end.
    static func makeDirectories(_ path: String) -> Bool {
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty && !path.hasPrefix("/") ? "" : "/") + component
            // EEXIST is the common answer; any other failure shows in the stat below.
            _ = mkdir(prefix, 0o700)
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A new empty file, mode 0600, opened for writing, under a name no other thread or process
    /// can be using: pid, a per-instance serial and a random number, and O_EXCL to be sure.
    func createTemporary(in folder: String) -> (path: String, fd: Int32)? {
        for _ in 0..<3 {
            let serial = state.withLock { s in
                s.serial &+= 1
                return s.serial
            }
            let path = folder + "/" + DiskCache.temporaryPrefix
                + "\(getpid())-\(serial)-\(String(UInt32.random(in: .min ... .max), radix: 16))"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 { return (path, fd) }
            // EEXIST is worth another name; anything else (no folder, no space) will not change.
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// Whether a file can be created in `folder`: checking the mode bits would be wrong for root,
    /// a read-only mount or an ACL, so one is made and removed.
    func canWrite(in folder: String) -> Bool {
        guard let (path, fd) = createTemporary(in: folder) else { return false }
        close(fd)
        unlink(path)
        return true
    }

    /// All of `bytes`, through short writes and signals.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// Exactly `count` bytes, or nil if the file is shorter or cannot be read.
    static func readAll(_ fd: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return nil }
            filled += n
        }
        return bytes
    }

    /// Deletes a bad entry, unless another process has renamed a new file over it since it was
    /// opened: that one is whole, and removing it would waste its work.
    static func discard(_ path: String, opened: stat) {
        var now = stat()
        guard lstat(path, &now) == 0, now.st_dev == opened.st_dev, now.st_ino == opened.st_ino else { return }
        unlink(path)
    }

    /// Wall-clock time in ns, the clock file times are set from.
    static func now() -> Int64 { SystemClock.wallNanoseconds() }

    static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
