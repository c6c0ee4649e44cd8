import PhotoGridModel
import PhotoGridSystem

/// The file work under `DiskCache`: folders, temporary files, bad entries.
extension DiskCache {
    /// Temporary files start with this, which no entry name (hex digits only) can.
    static let temporaryPrefix = ".tmp-"

    /// `mkdir -p` with mode 0700, as the XDG spec asks for a cache directory: thumbnails show
    /// what is in someone's photos. True if `path` is a directory at the end.
    package static func makeDirectories(_ path: String) -> Bool { RawPath(path).makeDirectories(permissions: 0o700) }

    /// A new empty file, mode 0600, opened for writing, under a name no other thread or process
    /// can be using: pid, a per-instance serial and a random number, and `exclusive` to be sure.
    func createTemporary(in folder: String) -> (path: RawPath, file: FileDescriptor)? {
        for _ in 0..<3 {
            let serial = state.withLock { s in
                s.serial &+= 1
                return s.serial
            }
            let path = RawPath(folder + "/" + DiskCache.temporaryPrefix
                + "\(ThisProcess.id)-\(serial)-\(String(UInt32.random(in: .min ... .max), radix: 16))")
            do throws(SystemError) {
                return (path, try FileDescriptor.open(path, .write, options: [.create, .exclusive, .noFollow], permissions: 0o600))
            } catch {
                // "Exists" is worth another name; anything else (no folder, no space) will not change.
                if !error.exists { return nil }
            }
        }
        return nil
    }

    /// Whether a file can be created in `folder`: checking the mode bits would be wrong for root,
    /// a read-only mount or an ACL, so one is made and removed.
    func canWrite(in folder: String) -> Bool {
        guard let (path, file) = createTemporary(in: folder) else { return false }
        try? file.close()
        path.remove()
        return true
    }

    /// Deletes a bad entry, unless another process has renamed a new file over it since it was
    /// opened: that one is whole, and removing it would waste its work.
    static func discard(_ path: RawPath, opened: FileStatus) {
        guard let now = path.linkStatus(), now.device == opened.device, now.inode == opened.inode else { return }
        path.remove()
    }

}
