import PhotoGridSystem

/// The freedesktop.org trash (the Trash specification 1.0, which GNOME's, KDE's and the other
/// file managers follow): a file moved to `files/NAME` of a trash folder, with `info/NAME.trashinfo`
/// saying where it was and when, so that a file manager lists it and can put it back. photogrid
/// never deletes a photo; `d` moves it here and `u` moves it back.
///
/// Which trash: the home trash (`$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`) for a file
/// on the same file system, since a trash must be reached by rename(2); for one on another
/// (a USB disk, a second drive), that volume's own: `TOP/.Trash/UID` where the administrator made
/// a shared `.Trash` (a folder, not a link, with the sticky bit), else `TOP/.Trash-UID`, made on
/// first use. A file is never copied across file systems.
package struct Trash: Sendable {
    /// Where a file went, to bring it back (`restore`).
    package struct Entry: Sendable, Equatable {
        package let original: RawPath
        package let trashed: RawPath
        package let info: RawPath

        package init(original: RawPath, trashed: RawPath, info: RawPath) {
            self.original = original
            self.trashed = trashed
            self.info = info
        }
    }

    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// No trash can hold it (a read-only volume, no home): the reason in the system's words.
        case noTrash(String)
        case failed(String)
        /// Putting back: a file is there now, and is not overwritten.
        case occupied

        package var description: String {
            switch self {
            case .noTrash(let reason): return "no trash for it: " + reason
            case .failed(let reason): return reason
            case .occupied: return "a file of that name is there now"
            }
        }
    }

    let home: RawPath
    let userID: UInt32
    /// The clock the deletion date is read from (a test's stands still).
    let clock: any Clock

    /// `environment` gives `XDG_DATA_HOME` and `HOME`; nil when neither says where home is.
    package init?(environment: [String: String], userID: UInt32 = ThisProcess.userID, clock: any Clock = SystemClock()) {
        // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            home = RawPath(data).appending(Array("Trash".utf8))
        } else if let user = environment["HOME"], user.hasPrefix("/") {
            home = RawPath(user + "/.local/share/Trash")
        } else {
            return nil
        }
        self.userID = userID
        self.clock = clock
    }

    /// Moves `file` (a photo or a sidecar; a link is moved as the link) to a trash.
    package func move(_ file: RawPath) throws(Failure) -> Entry {
        guard let folder = file.parent.bytes.isEmpty ? RawPath(".").resolved : file.parent.resolved,
              let status = file.linkStatus(), let folderStatus = folder.status() else {
            throw .failed(SystemError.lastMessage())
        }
        let original = folder.appending(file.lastComponent.bytes)
        let (trash, pathInInfo) = try trashFor(device: status.device, original: original, folderDevice: folderStatus.device)
        let files = trash.appending(Array("files".utf8)), infos = trash.appending(Array("info".utf8))
        guard files.makeDirectories(permissions: 0o700), infos.makeDirectories(permissions: 0o700) else {
            throw .noTrash(SystemError.lastMessage())
        }
        let content = Array("[Trash Info]\nPath=\(Trash.encode(pathInInfo))\nDeletionDate=\(Trash.date(clock.wallSeconds()))\n".utf8)
        // What a photogrid killed here before left (`AtomicFile.isLeftover`) goes first.
        for name in DirectoryEntry.names(in: infos) ?? [] where AtomicFile.isLeftover(name) { AtomicFile.removeLeftover(infos.appending(name)) }
        // The .trashinfo is written whole under a hidden name first, then given its name by
        // link(2), which fails when the name is taken: the spec's O_EXCL claim, and a kill
        // halfway never leaves an empty .trashinfo (the crash tests found one).
        let written = infos.appending(Array(".".utf8) + file.lastComponent.bytes + Array(".trashinfo\(AtomicFile.marker)\(ThisProcess.id)-0".utf8))
        written.remove()
        guard written.createNew(content, permissions: 0o600) else { throw .noTrash(SystemError.lastMessage()) }
        defer { written.remove() }
        // Another program trashing a file of the same name at the same moment gets another name.
        for attempt in 1...1000 {
            let name = Trash.name(file.lastComponent.bytes, attempt: attempt)
            let info = infos.appending(name + Array(".trashinfo".utf8))
            do throws(SystemError) {
                try written.hardLink(at: info)
            } catch {
                if error.exists { continue }
                guard error.meansNoHardLinks else { throw .noTrash(error.description) }
                // A file system without hard links: O_EXCL on the name itself.
                guard info.createNew(content, permissions: 0o600) else {
                    if SystemError.last.exists { continue }
                    throw .noTrash(SystemError.lastMessage())
                }
            }
            let trashed = files.appending(name)
            if trashed.linkStatus() != nil { info.remove(); continue }
            do throws(SystemError) {
                try original.rename(to: trashed)
            } catch {
                info.remove()
                throw .failed(error.description)
            }
            return Entry(original: original, trashed: trashed, info: info)
        }
        throw .failed("no free name in the trash")
    }

    /// Puts a file back where it was, never over a file that is there now, and forgets its
    /// .trashinfo.
    package func restore(_ entry: Entry) throws(Failure) {
        guard entry.trashed.linkStatus() != nil else { throw .failed("it is no longer in the trash") }
        // link(2) fails when the name is taken, so nothing there is overwritten even if it came
        // just now; on file systems without hard links, a look first and a rename.
        do throws(SystemError) {
            try entry.trashed.hardLink(at: entry.original)
            entry.trashed.remove()
        } catch {
            if error.exists { throw .occupied }
            guard error.meansNoHardLinks else { throw .failed(error.description) }
            guard entry.original.linkStatus() == nil else { throw .occupied }
            do throws(SystemError) { try entry.trashed.rename(to: entry.original) } catch { throw .failed(error.description) }
        }
        entry.info.remove()
    }

    /// The trash for a file on `device`, and the path its .trashinfo names (absolute in the home
    /// trash, relative to the volume's top in a volume's).
    private func trashFor(device: UInt64, original: RawPath, folderDevice: UInt64) throws(Failure) -> (RawPath, RawPath) {
        let homeDevice = home.status()?.device ?? Trash.existingAncestor(of: home)?.status()?.device
        if homeDevice == device { return (home, original) }
        let top = Trash.top(of: original.parent, device: folderDevice)
        let relative = RawPath(Array(original.bytes.dropFirst(top.bytes == [UInt8(ascii: "/")] ? 1 : top.bytes.count + 1)))
        let shared = top.appending(Array(".Trash".utf8))
        if let status = shared.linkStatus(), status.isDirectory, status.permissions & 0o1000 != 0 {
            let mine = shared.appending(Array(String(userID).utf8))
            if mine.makeDirectories(permissions: 0o700), mine.linkStatus()?.isDirectory == true { return (mine, relative) }
        }
        let own = top.appending(Array(".Trash-\(userID)".utf8))
        own.makeDirectory(permissions: 0o700)
        guard let status = own.linkStatus(), status.isDirectory else {
            throw .noTrash("cannot make " + own.description + ": " + SystemError.lastMessage())
        }
        return (own, relative)
    }

    /// The top folder of the file system `folder` is on: the last folder up on the same device.
    static func top(of folder: RawPath, device: UInt64) -> RawPath {
        var current = folder
        while current.bytes.count > 1 {
            let up = current.parent.bytes.isEmpty ? RawPath("/") : current.parent
            guard up.status()?.device == device else { break }
            current = up
        }
        return current
    }

    /// The nearest folder up from `path` that is there (the home trash before it is made).
    static func existingAncestor(of path: RawPath) -> RawPath? {
        var current = path
        while current.bytes.count > 1 {
            current = current.parent.bytes.isEmpty ? RawPath("/") : current.parent
            if current.status() != nil { return current }
        }
        return current.status() != nil ? current : nil
    }

    /// "photo.jpg", then "photo.2.jpg", "photo.3.jpg"... as the file managers name a second one.
    static func name(_ name: [UInt8], attempt: Int) -> [UInt8] {
        guard attempt > 1 else { return name }
        let suffix = Array(".\(attempt)".utf8)
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return name + suffix }
        return Array(name[..<dot]) + suffix + Array(name[dot...])
    }

    /// The spec's Path: percent-encoded as a URI's path (RFC 2396), the slashes kept.
    static func encode(_ path: RawPath) -> String {
        let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()/".utf8))
        var out = ""
        for byte in path.bytes {
            if unreserved.contains(byte) { out.unicodeScalars.append(Unicode.Scalar(byte)) } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// The spec's DeletionDate, local time: "2026-11-26T14:05:09".
    static func date(_ seconds: Int) -> String {
        guard let t = SystemClock.localTime(epochSeconds: Int64(seconds)) else { return "1970-01-01T00:00:00" }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):\(two(t.second))"
    }
}
