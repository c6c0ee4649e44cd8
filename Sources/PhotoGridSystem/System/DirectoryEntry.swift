import Glibc

/// A name from `readdir`, read safely. The kernel packs entries by their real length, so the
/// last one in readdir's buffer may end before a whole `struct dirent` would: copying the struct
/// (as `entry.pointee.d_name` does in Swift) reads past the buffer, which AddressSanitizer caught
/// on a folder of 100,000 files. Only the bytes up to the name's NUL are read here.
package enum DirectoryEntry {
    package static func name(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        let length = strlen(start)
        return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: length))
    }

    /// The names in a folder, without "." and ".."; nil when it cannot be opened.
    package static func names(in folder: RawPath) -> [[UInt8]]? {
        guard let dir = folder.withCString({ opendir($0) }) else { return nil }
        defer { closedir(dir) }
        return names(dir)
    }

    /// The names in a folder with what lstat says of each (links not followed), leaving out any
    /// that vanish between the two; empty when the folder cannot be opened.
    package static func statuses(in folder: RawPath) -> [([UInt8], FileStatus)] {
        guard let dir = folder.withCString({ opendir($0) }) else { return [] }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        return names(dir).compactMap { name in
            var info = stat()
            let found = (name + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { fstatat(fd, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
            }
            return found == 0 ? (name, FileStatus(info)) : nil
        }
    }

    /// Whether the folder can be opened for listing (errno says why not).
    package static func canList(_ folder: RawPath) -> Bool {
        guard let dir = folder.withCString({ opendir($0) }) else { return false }
        closedir(dir)
        return true
    }

    /// The names in an open directory, without "." and "..".
    package static func names(_ dir: OpaquePointer) -> [[UInt8]] {
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = DirectoryEntry.name(entry)
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names
    }
}
