import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A change to the user's files that `u` takes back: one history, newest last, of the trash and
/// the copies and moves to folders, so `u` undoes the newest, then the one before.
enum FileChange {
    case trashed(GridController.Trashed)
    case moved(GridController.Moved)
}

/// `C` and `V`: the marked photos (else the focused one) copied or moved to a folder typed on
/// the status line (`FolderView`), each with its raw file and sidecars (`FileMove`). A photo
/// moved out of the gallery leaves the grid, the focus on the photo after it; one moved or
/// copied into a folder of the gallery appears there.
extension GridController {
    /// What a copy or a move did, for `u`: each photo with the files that went, where, and the
    /// list as it was.
    struct Moved {
        var groups: [(photo: Photo, done: [FileMove.Done])]
        var copy: Bool
        var folder: RawPath
        var before: [Photo]
    }

    /// How many changes `u` can go back through.
    static let historyLength = 50

    /// `C`, `V`: asks for the folder.
    func askTransfer(copy: Bool) {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        let verb = copy ? "copied" : "moved"
        if settings.readOnly { notice = "read-only (--read-only): nothing is " + verb; return }
        guard targets.allSatisfy({ session.table[$0].file != nil }), let root = galleryFolder else {
            notice = "photos from elsewhere are not " + verb + " to folders"
            return
        }
        let home = PhotoGrid.environment(["HOME"])["HOME"]
        layers.append(FolderView(photos: targets, copy: copy, recent: recentFolders(), base: root, home: home))
    }

    /// The folder the gallery was opened on, as an absolute path: where a typed path starts. A
    /// list (`--files`) names its photos as given: relative to the folder photogrid was started in.
    var galleryFolder: RawPath? {
        guard let photo = gallery.allPhotos.first(where: { $0.file != nil }), let file = photo.file?.bytes else { return nil }
        let relative = photo.relativePath.bytes
        let tail = [UInt8(ascii: "/")] + relative
        if relative.first != UInt8(ascii: "/"), file.count > tail.count, Array(file.suffix(tail.count)) == tail {
            let folder = RawPath(Array(file.dropLast(tail.count)))
            return folder.bytes.isEmpty ? RawPath("/") : folder.resolved ?? folder
        }
        return RawPath(".").resolved
    }

    /// Copies or moves `photos` into the folder `text` names, made if it is not there.
    func transfer(_ photos: [PhotoID], to text: String, copy: Bool) {
        let verb = copy ? "copied" : "moved"
        guard let root = galleryFolder,
              let folder = FolderView.resolve(text, base: root, home: PhotoGrid.environment(["HOME"])["HOME"]) else {
            notice = "no such folder: nothing " + verb
            return
        }
        var made = false
        if folder.status() == nil {
            guard folder.makeDirectories(permissions: 0o777) else { notice = "cannot make " + folder.description + ": " + SystemError.lastMessage(); return }
            made = true
        }
        guard folder.status()?.isDirectory == true else { notice = folder.description + " is not a folder: nothing " + verb; return }
        let all = gallery.allPhotos
        var groups: [(photo: Photo, done: [FileMove.Done])] = [], failures: [String] = []
        for id in photos {
            let photo = session.table[id]
            do throws(FileMove.Failure) {
                groups.append((photo, try FileMove.transfer(companions(of: photo, among: all), into: folder, copy: copy)))
            } catch {
                failures.append(photo.name + " stays: " + error.description)
            }
        }
        remember(folder: folder.description)
        let name = folder.title + (made ? " (made)" : "")
        guard !groups.isEmpty else { notice = failures.first ?? "nothing " + verb; return }
        gallery.history.append(.moved(Moved(groups: groups, copy: copy, folder: folder, before: all)))
        if gallery.history.count > GridController.historyLength { gallery.history.removeFirst() }
        let said = (groups.count == 1 ? verb + " " + groups[0].photo.name : "\(verb) \(groups.count) photos") + " to " + name + " (u undoes)"
        if !copy {
            let gone = Set(groups.flatMap { group in group.done.compactMap { done in all.first { $0.file == done.from }?.source } })
            showAfterRemoving(gone, from: all, said: said)
        }
        readAgain(folder, below: root)
        // The first photo that stayed and why; how many did, when more than one.
        let failed = failures.isEmpty ? "" : "; " + failures[0] + (failures.count > 1 ? " (and \(failures.count - 1) more)" : "")
        notice = said + failed
    }

    /// A photo's files that go with it: its own, its sidecars, its raw file and the raw's, and
    /// Lightroom's shared `NAME.xmp` when every photo of that name goes along.
    func companions(of photo: Photo, among all: [Photo]) -> [RawPath] {
        guard let file = photo.file else { return [] }
        var files = [file]
        var photos = [photo]
        if let raw = gallery.raws[photo.source], let rawFile = raw.file { files.append(rawFile); photos.append(raw) }
        for one in photos {
            guard let path = one.file else { continue }
            let own = Sidecar(photo: path).path
            if own.linkStatus() != nil, !files.contains(own) { files.append(own) }
        }
        let shared = Sidecar.of(file).path
        let stem = shared.bytes.dropLast(4)
        let sharers = all.filter { other in
            guard let path = other.file else { return false }
            return path.bytes.starts(with: stem) && path.bytes.dropFirst(stem.count).first == UInt8(ascii: ".")
                && !path.bytes.dropFirst(stem.count + 1).contains(UInt8(ascii: "/"))
        }
        if shared.linkStatus() != nil, !files.contains(shared), sharers.allSatisfy({ sharer in photos.contains { $0.source == sharer.source } }) {
            files.append(shared)
        }
        return files
    }

    /// A folder of the gallery that photos went into, read again so they appear there.
    private func readAgain(_ folder: RawPath, below root: RawPath) {
        guard folder != root ? folder.bytes.starts(with: root.bytes + [UInt8(ascii: "/")]) : true else { return }
        let relative = folder == root ? RawPath([UInt8]()) : RawPath(Array(folder.bytes.dropFirst(root.bytes.count + 1)))
        applyFolderChanges([FolderWatch.Change(folder: relative, whole: false)])
    }

    /// The photos of a change put back, or the copies it made taken away.
    func undoMove(_ last: Moved) {
        var back: Set<RawPath> = [], removed: Set<RawPath> = [], failures: [String] = []
        for group in last.groups {
            let failed = FileMove.undo(group.done, copied: last.copy)
            failures += failed
            if failed.isEmpty {
                if last.copy { removed.formUnion(group.done.map(\.to)) } else { back.formUnion(group.done.map(\.from)) }
            }
        }
        let present = Set(gallery.allPhotos.compactMap(\.file)).subtracting(removed).subtracting(last.copy ? [] : last.groups.flatMap { $0.done.map(\.to) })
        let list = last.before.filter { photo in photo.file.map { present.contains($0) || back.contains($0) } ?? true }
        showList(list)
        let count = last.groups.count
        let what = count == 1 ? last.groups[0].photo.name : "\(count) photos"
        let said = last.copy ? "took back the copies of " + what + " in " + last.folder.title : "put back " + what + " from " + last.folder.title
        if !last.copy, let first = last.groups.first, let id = session.table.id(of: first.photo.source), gallery.photos.contains(id) {
            if let photoView { photoView.state = ZoomState(photo: id) } else { grid.move(to: id, context) }
        }
        notice = failures.isEmpty ? said : said + "; not all: " + failures[0]
    }

    /// `u`: the newest change to files taken back.
    func undoLast() {
        guard let last = gallery.history.popLast() else { notice = "nothing to undo"; return }
        switch last {
        case .trashed(let trashed): undoTrash(trashed)
        case .moved(let moved): undoMove(moved)
        }
    }

    // MARK: The folders used before

    private var recentFile: RawPath? {
        DiskCache.defaultDirectory(environment: PhotoGrid.environment(["XDG_CACHE_HOME", "HOME"])).map { RawPath($0 + "/recent-folders") }
    }

    /// The folders photos were copied or moved to, newest first (kept in photogrid's cache folder).
    func recentFolders() -> [String] {
        if let known = gallery.recentFolders { return known }
        let read = recentFile.flatMap { file in
            (try? FileDescriptor.open(file, .read, options: [.untrusted]))?.closing { try? $0.readToEnd(limit: 65_536) }
        }
        let folders = read.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init).filter { $0.hasPrefix("/") } } ?? []
        gallery.recentFolders = Array(folders.prefix(20))
        return gallery.recentFolders ?? []
    }

    private func remember(folder: String) {
        guard !folder.contains("\n") else { return }
        var folders = recentFolders().filter { $0 != folder }
        folders.insert(folder, at: 0)
        gallery.recentFolders = Array(folders.prefix(20))
        guard let file = recentFile else { return }
        // Only photogrid's own cache folder is written; a failure costs the list, nothing else.
        _ = file.parent.makeDirectories(permissions: 0o700)
        try? AtomicFile.write(Array(gallery.recentFolders!.joined(separator: "\n").utf8) + [10], to: file)
    }
}
