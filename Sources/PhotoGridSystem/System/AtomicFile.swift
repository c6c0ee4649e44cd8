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
