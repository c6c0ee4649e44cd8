import Glibc

/// Writes a file whole or not at all: into a hidden temporary file in the same folder, flushed to
/// the disk, then renamed over the old one (a rename within a file system is atomic in POSIX). A
/// reader sees the old file or the new one, never half of one; a crash leaves the old one whole.
/// Sidecars are saved so, and an export's manifest and files.
package enum AtomicFile {
    package enum Failure: Error {
        /// No temporary file could be made beside it: the folder is not writable, or gone.
        case cannotCreate(SystemError)
        case failed(SystemError)
    }

    /// The temporary files' names hold this: ".NAME.photogrid-PID-N".
    package static let marker = ".photogrid-"

    /// Written, or why not, with nothing left behind. `permissions` for the new file; without,
    /// what any new file gets (0666 less the umask). `modified`: its mtime, in ns since 1970.
    package static func write(_ bytes: [UInt8], to path: RawPath, permissions: UInt32? = nil,
                              modified: Int64? = nil) throws(Failure) {
        // ".photo.jpg.xmp.photogrid-1234-5": hidden, so a file manager or the grid reading the
        // folder meanwhile does not show it. Made with `exclusive` rather than mkstemp, so that a
        // new file gets what any new file gets, 0666 less the umask (mkstemp's is 0600).
        let folder = path.parent.bytes.isEmpty ? [] : path.parent.bytes + [UInt8(ascii: "/")]
        var temporary = path, opened: FileDescriptor?, failure = SystemError(code: 0)
        for attempt in 0..<100 {
            temporary = RawPath(folder + Array(".".utf8) + path.lastComponent.bytes + Array("\(marker)\(ThisProcess.id)-\(attempt)".utf8))
            do throws(SystemError) {
                opened = try FileDescriptor.open(temporary, .write, options: [.create, .exclusive, .noFollow], permissions: 0o666)
                break
            } catch {
                failure = error
                if !error.exists { break }
            }
        }
        guard let file = opened else { throw .cannotCreate(failure) }
        var written: SystemError?
        do throws(SystemError) {
            // A sidecar written again keeps its permissions.
            if let permissions { try file.setPermissions(permissions) }
            try file.writeAll(bytes)
            if let modified { try file.setModified(nanoseconds: modified) }
            try file.sync()
        } catch {
            written = error
        }
        // Closed once, whatever happened; close can report a delayed write error too.
        var closed: SystemError?
        do throws(SystemError) { try file.close() } catch { closed = error }
        if let error = written ?? closed {
            temporary.remove()
            throw .failed(error)
        }
        do throws(SystemError) { try temporary.rename(to: path) } catch {
            temporary.remove()
            throw .failed(error)
        }
    }
}

extension AtomicFile {
    /// Whether `name` is a temporary file a photogrid process left when it was killed mid-write
    /// (".photo.jpg.xmp.photogrid-1234-0", or "-copy" for a copy to a folder): the process that
    /// made it is gone. One whose process runs may be being written right now.
    package static func isLeftover(_ name: [UInt8]) -> Bool {
        guard name.first == UInt8(ascii: "."), let pid = leftoverProcess(name) else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The process a temporary file's name holds, if it is one photogrid makes.
    static func leftoverProcess(_ name: [UInt8]) -> pid_t? {
        let marker = Array(AtomicFile.marker.utf8)
        guard name.count > marker.count + 3 else { return nil }
        var start: Int?
        for i in stride(from: name.count - marker.count, through: 1, by: -1) where Array(name[i..<(i + marker.count)]) == marker {
            start = i + marker.count
            break
        }
        guard let start, let dash = name[start...].firstIndex(of: UInt8(ascii: "-")), dash > start else { return nil }
        let digits = name[start..<dash], suffix = name[(dash + 1)...]
        guard digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              !suffix.isEmpty, suffix.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || Array(suffix) == Array("copy".utf8),
              let pid = pid_t(String(decoding: digits, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }

    /// Removes `path` when it is such a leftover, a regular file of this user's: what a write
    /// killed halfway left, never a photo (the file it was to become is whole, or as it was).
    @discardableResult
    package static func removeLeftover(_ path: RawPath) -> Bool {
        guard isLeftover(path.lastComponent.bytes), let status = path.linkStatus(), status.isRegular,
              path.withCString({ pathString -> Bool in
                  var info = stat()
                  return lstat(pathString, &info) == 0 && info.st_uid == getuid()
              }) else { return false }
        return path.remove()
    }
}
