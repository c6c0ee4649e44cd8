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
    /// The permission bits (0o7777).
    package let permissions: UInt32

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
        permissions = UInt32(info.st_mode & 0o7777)
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

    /// stat(2), or lstat(2) with `followingLink` false, saying why when there is nothing to see.
    package func checkedStatus(followingLink: Bool) throws(SystemError) -> FileStatus {
        var info = stat()
        let result = withCString { followingLink ? stat($0, &info) : lstat($0, &info) }
        guard result == 0 else { throw .last }
        return FileStatus(info)
    }

    /// A regular file (links followed).
    package var isRegularFile: Bool { status()?.isRegular == true }

    /// unlink(2); false when nothing was removed.
    @discardableResult
    package func remove() -> Bool { withCString { unlink($0) } == 0 }

    /// A new file of ours holding `bytes`: created here and nowhere else (O_EXCL, never an
    /// existing file or what a link points at), closed, and removed again if the write failed.
    package func createNew(_ bytes: [UInt8], permissions: UInt32 = 0o600) -> Bool {
        guard let file = try? FileDescriptor.open(self, .write, options: [.create, .exclusive, .noFollow], permissions: permissions) else {
            return false
        }
        let written = (try? file.writeAll(bytes)) != nil
        // close can report a delayed write error (NFS, quota).
        guard (try? file.close()) != nil, written else { remove(); return false }
        return true
    }

    /// rename(2) over whatever `destination` names (atomic within a file system).
    package func rename(to destination: RawPath) throws(SystemError) {
        let result = withCString { from in destination.withCString { to in Glibc.rename(from, to) } }
        guard result == 0 else { throw .last }
    }

    /// link(2): a second name for the file, never over one that exists (EEXIST, in `SystemError.last`).
    package func hardLink(at name: RawPath) throws(SystemError) {
        let result = withCString { from in name.withCString { to in Glibc.link(from, to) } }
        guard result == 0 else { throw .last }
    }

    /// mkdir(2); false when not made (there already, most often).
    @discardableResult
    package func makeDirectory(permissions: UInt32) -> Bool { withCString { mkdir($0, mode_t(permissions)) } == 0 }

    /// `mkdir -p`: each missing folder on the way made with `permissions`; true when the path is
    /// a folder at the end (made now or there already).
    package func makeDirectories(permissions: UInt32) -> Bool {
        var prefix: [UInt8] = bytes.first == UInt8(ascii: "/") ? [UInt8(ascii: "/")] : []
        var failure: Int32 = 0
        for component in bytes.split(separator: UInt8(ascii: "/")) {
            prefix += component
            // "Exists" is the common answer; any other failure shows in the look below.
            if !RawPath(prefix).makeDirectory(permissions: permissions), errno != EEXIST, failure == 0 { failure = errno }
            prefix.append(UInt8(ascii: "/"))
        }
        guard status()?.isDirectory == true else {
            // errno says why a folder could not be made (a full disk), not that the last is missing.
            if failure != 0 { errno = failure }
            return false
        }
        return true
    }

    /// rmdir(2): false when not removed (not empty, most often).
    @discardableResult
    package func removeDirectory() -> Bool { withCString { rmdir($0) } == 0 }

    /// access(2) with R_OK: whether this process may read the file.
    package var isReadable: Bool { withCString { access($0, R_OK) } == 0 }

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
