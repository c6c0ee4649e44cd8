/// Writes a file whole or not at all: into a hidden temporary file in the same folder, flushed to
/// the disk, then renamed over the old one (a rename within a file system is atomic in POSIX).
enum AtomicFile {
    /// nil when written; else why not, with nothing left behind.
    static func write(_ bytes: [UInt8], to path: RawPath, permissions: UInt32?) -> Sidecar.Problem? {
        // ".photo.jpg.xmp.photogrid-1234-5": hidden, so a file manager or the grid reading the
        // folder meanwhile does not show it. Made with `exclusive` rather than mkstemp, so that a
        // new file gets what any new file gets, 0666 less the umask (mkstemp's is 0600).
        let folder = path.parent.bytes.isEmpty ? [] : path.parent.bytes + [UInt8(ascii: "/")]
        var temporary = path, opened: FileDescriptor?, failure = SystemError(code: 0)
        for attempt in 0..<100 {
            temporary = RawPath(folder + Array(".".utf8) + path.lastComponent.bytes + Array(".photogrid-\(ThisProcess.id)-\(attempt)".utf8))
            do throws(SystemError) {
                opened = try FileDescriptor.open(temporary, .write, options: [.create, .exclusive, .noFollow], permissions: 0o666)
                break
            } catch {
                failure = error
                if !error.exists { break }
            }
        }
        guard let file = opened else { return .folderNotWritable(failure.description) }
        var written: SystemError?
        do throws(SystemError) {
            // A sidecar written again keeps its permissions.
            if let permissions { try file.setPermissions(permissions) }
            try file.writeAll(bytes)
            try file.sync()
        } catch {
            written = error
        }
        // Closed once, whatever happened; close can report a delayed write error too.
        var closed: SystemError?
        do throws(SystemError) { try file.close() } catch { closed = error }
        if let error = written ?? closed {
            temporary.remove()
            return .failed(error.description)
        }
        do throws(SystemError) { try temporary.rename(to: path) } catch {
            temporary.remove()
            return .failed(error.description)
        }
        return nil
    }
}
