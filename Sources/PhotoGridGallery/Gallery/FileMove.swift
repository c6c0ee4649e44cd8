import Glibc
import PhotoGridSystem

/// Photos copied or moved into another folder (`C`, `V`), each with the files that belong to it
/// (its raw file, its sidecars) as one group: all of a group go, or none. A file is never written
/// over: a name already taken in the folder keeps the whole group where it is. Within a file
/// system a move is link(2) then unlink(2), so the name is claimed atomically and the photo is
/// never in neither place; across file systems (and for a copy) the bytes are written to a hidden
/// file in the folder, flushed, read back and compared, and only then given their name; a move
/// deletes the original after that.
package enum FileMove {
    /// One file that went: where it was and where it is.
    package struct Done: Sendable, Equatable {
        package let from: RawPath
        package let to: RawPath
    }

    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// A file of that name is in the folder: nothing of the group was moved.
        case clash(name: String)
        case failed(String)

        package var description: String {
            switch self {
            case .clash(let name): return name + " is there already"
            case .failed(let reason): return reason
            }
        }
    }

    /// Moves or copies `files` (the photo first) into `folder`, under their own names; on a
    /// failure halfway, what was done is undone, so the group stays whole in one place.
    package static func transfer(_ files: [RawPath], into folder: RawPath, copy: Bool) throws(Failure) -> [Done] {
        let targets = files.map { folder.appending($0.lastComponent.bytes) }
        for (file, target) in zip(files, targets) {
            if target.linkStatus() != nil {
                // The same file (a move to where it is) is no clash but nothing to do either.
                if let a = file.status(), let b = target.status(), a.device == b.device, a.inode == b.inode {
                    throw .failed("it is in that folder already")
                }
                throw .clash(name: target.lastComponent.description)
            }
        }
        var done: [Done] = []
        for (file, target) in zip(files, targets) {
            do throws(Failure) {
                if copy { try copyVerified(file, to: target) } else { try move(file, to: target) }
                done.append(Done(from: file, to: target))
            } catch {
                undo(done, copied: copy)
                throw error
            }
        }
        return done
    }

    /// Puts moved files back (or removes the copies made), newest first; what could not be put
    /// back, named.
    @discardableResult
    package static func undo(_ done: [Done], copied: Bool) -> [String] {
        var failures: [String] = []
        for item in done.reversed() {
            if copied {
                // Only a copy that is still the copy made is removed; one changed since is kept.
                if !sameBytes(item.from, item.to) { failures.append(item.to.lastComponent.description + " changed since: kept"); continue }
                if !item.to.remove() { failures.append(item.to.lastComponent.description + ": " + SystemError.lastMessage()) }
                continue
            }
            do throws(Failure) { try move(item.to, to: item.from) } catch {
                failures.append(item.to.lastComponent.description + ": " + error.description)
            }
        }
        return failures
    }

    /// One file to a name that must not exist: a hard link and an unlink on one file system, a
    /// verified copy and an unlink across two.
    static func move(_ file: RawPath, to target: RawPath) throws(Failure) {
        do throws(SystemError) {
            try file.hardLink(at: target)
        } catch {
            if error.exists { throw .clash(name: target.lastComponent.description) }
            if error.code == EXDEV {
                try copyVerified(file, to: target)
            } else if error.meansNoHardLinks {
                // A file system without hard links (FAT, some network ones): a look, then rename.
                guard target.linkStatus() == nil else { throw .clash(name: target.lastComponent.description) }
                do throws(SystemError) { try file.rename(to: target) } catch { throw .failed(error.description) }
                return
            } else {
                throw .failed(error.description)
            }
        }
        guard file.remove() else {
            // The original stays: the new name is taken back, so the photo is in one place.
            let reason = SystemError.lastMessage()
            target.remove()
            throw .failed("cannot remove the original: " + reason)
        }
    }

    /// The bytes of `file` in a hidden file beside `target`, flushed, read back and compared,
    /// then linked to `target` (which fails if the name was taken meanwhile). The copy keeps the
    /// file's permissions and modification time.
    static func copyVerified(_ file: RawPath, to target: RawPath) throws(Failure) {
        let temporary = RawPath(target.parent.bytes + Array("/.".utf8) + target.lastComponent.bytes
                                + Array("\(AtomicFile.marker)\(ThisProcess.id)-copy".utf8))
        do throws(SystemError) {
            let source = try FileDescriptor.open(file, .read, options: [.noFollow, .untrusted])
            try source.closing { source throws(SystemError) in
                let status = try source.status()
                let output = try FileDescriptor.open(temporary, .write, options: [.create, .exclusive, .noFollow], permissions: 0o600)
                var failure: SystemError?
                do throws(SystemError) {
                    var offset = 0
                    while true {
                        let chunk = try source.read(upTo: 1 << 20, at: offset)
                        if chunk.isEmpty { break }
                        try output.writeAll(chunk)
                        offset += chunk.count
                    }
                    try output.setPermissions(status.permissions & 0o777)
                    try output.setModified(nanoseconds: status.modified)
                    try output.sync()
                } catch {
                    failure = error
                }
                do throws(SystemError) { try output.close() } catch { failure = failure ?? error }
                if let failure { throw failure }
            }
        } catch {
            temporary.remove()
            throw .failed(error.description)
        }
        switch compare(file, temporary) {
        case .same: break
        case .different:
            temporary.remove()
            throw .failed("the copy of " + file.lastComponent.description + " read back different")
        case .unreadable(let reason):
            temporary.remove()
            throw .failed("cannot read the copy of " + file.lastComponent.description + " back: " + reason)
        }
        do throws(SystemError) {
            try temporary.hardLink(at: target)
            temporary.remove()
        } catch {
            if error.exists { temporary.remove(); throw .clash(name: target.lastComponent.description) }
            guard error.meansNoHardLinks else { temporary.remove(); throw .failed(error.description) }
            guard target.linkStatus() == nil else { temporary.remove(); throw .clash(name: target.lastComponent.description) }
            do throws(SystemError) { try temporary.rename(to: target) } catch {
                temporary.remove()
                throw .failed(error.description)
            }
        }
    }

    /// Both files hold the same bytes (read in pieces, so a large raw file is never in memory whole).
    package static func sameBytes(_ a: RawPath, _ b: RawPath) -> Bool { compare(a, b) == .same }

    enum Comparison: Equatable { case same, different, unreadable(String) }

    static func compare(_ a: RawPath, _ b: RawPath) -> Comparison {
        do throws(SystemError) {
            let first = try FileDescriptor.open(a, .read, options: [.untrusted])
            defer { try? first.close() }
            let second = try FileDescriptor.open(b, .read, options: [.untrusted])
            defer { try? second.close() }
            var offset = 0
            while true {
                let x = try first.read(upTo: 1 << 20, at: offset), y = try second.read(upTo: 1 << 20, at: offset)
                if x != y { return .different }
                if x.isEmpty { return .same }
                offset += x.count
            }
        } catch {
            return .unreadable(error.description)
        }
    }
}
