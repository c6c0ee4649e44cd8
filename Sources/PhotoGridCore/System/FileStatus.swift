import Glibc

/// What the kernel says of a file (stat(2)), as plain Swift values: the rest of photogrid asks
/// here instead of reading `st_mode` bits itself.
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case regular, directory, symbolicLink, other }

    package let kind: Kind
    package let size: Int
    /// Modification time, nanoseconds since 1970.
    package let modified: Int64
    package let device: UInt64
    package let inode: UInt64

    package init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    package var isRegular: Bool { kind == .regular }
    package var isDirectory: Bool { kind == .directory }
}

extension RawPath {
    /// stat(2): the file the path names, links followed; nil when there is none to look at.
    package func status() -> FileStatus? {
        var info = stat()
        return withCString({ stat($0, &info) }) == 0 ? FileStatus(info) : nil
    }

    /// lstat(2): the path itself, a link not followed.
    package func linkStatus() -> FileStatus? {
        var info = stat()
        return withCString({ lstat($0, &info) }) == 0 ? FileStatus(info) : nil
    }

    /// A regular file (links followed).
    package var isRegularFile: Bool { status()?.isRegular == true }

    /// unlink(2); false when nothing was removed.
    @discardableResult
    package func remove() -> Bool { withCString { unlink($0) } == 0 }

    /// A new file of ours holding `bytes`: created here and nowhere else (O_EXCL, never an
    /// existing file or what a link points at), closed, and removed again if the write failed.
    package func createNew(_ bytes: [UInt8], permissions: UInt32 = 0o600) -> Bool {
        let fd = withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(permissions)) }
        guard fd >= 0 else { return false }
        let written = (try? TTY.writeAll(bytes, to: fd)) != nil
        // close can report a delayed write error (NFS, quota).
        guard close(fd) == 0, written else { remove(); return false }
        return true
    }

    /// access(2) with W_OK: whether this process may write the file or folder.
    package var isWritable: Bool { withCString { access($0, W_OK) } == 0 }

    /// realpath(3): absolute, no `.` or `..`, no links; nil when it does not resolve (gone, a
    /// loop, no permission).
    package var resolved: RawPath? {
        guard let resolved = withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return RawPath(Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved))))
    }
}
