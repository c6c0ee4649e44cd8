import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// The folder watched while open (`FolderWatch`): a photo copied into a day folder appears in the
/// grid, the days and the months without a key, in its place in the order; one deleted or moved
/// away goes. Only the folders that changed are read again, so a library of 100,000 photos is
/// not scanned whole for each card copied in.
extension GridController {
    /// The watch's news, at a frame: the folders it names read again and the list made anew.
    func takeFolderChanges() {
        guard let watch = gallery.readers.watch else { return }
        if let said = watch.takeNotice() { notice = said }
        // While the folder is still being read, the changes wait for the whole list (`finishReading`).
        guard gallery.reading == nil, gallery.readers.rescanFolders != nil else { return }
        applyFolderChanges(watch.take())
    }

    /// The folders `changes` name read again (the watch's, or one photos were just copied or
    /// moved into) and the list made anew.
    func applyFolderChanges(_ changes: [FolderWatch.Change]) {
        guard !changes.isEmpty, gallery.reading == nil, let rescanFolders = gallery.readers.rescanFolders else { return }
        // The kernel dropped events, or the gallery folder itself changed as a whole: read it all.
        if changes.contains(where: { $0.whole && $0.folder.bytes.isEmpty }) {
            readGalleryAgain()
            return
        }
        let before = gallery.allPhotos
        let found = rescanFolders(changes, gallery.showHidden)
        let kept = before.filter { photo in !changes.contains { $0.covers(photo.relativePath) } }
        let replaced = replacedFiles(found)
        let next = gallery.inScannerOrder
            ? GridController.merged(kept, found.sorted { FolderScanner.precedes($0.relativePath, $1.relativePath) })
            : gallery.arranged(kept + found)
        if next.map(\.source) != before.map(\.source) {
            let old = Set(before.map(\.source)), new = Set(next.map(\.source))
            let added = new.subtracting(old).count, removed = old.subtracting(new).count
            showList(next)
            readMissingDates()
            if let query = gallery.query { setQuery(query) }
            notice = [added > 0 ? "\(added) added" : nil, removed > 0 ? "\(removed) removed" : nil].compactMap { $0 }.joined(separator: ", ")
        } else if !replaced.isEmpty {
            // The same list: the table takes the files' records as they are now, as a new list would.
            _ = session.table.ids(for: found)
        }
        // A photo written again in place (rotated, edited elsewhere), or deleted and written
        // anew under its name (an editor's save, rsync): made again, whatever the list did.
        session.pipeline.filesChanged(replaced)
    }

    /// Photos the session knew whose files are not the ones it knew (another size or time), with
    /// their stamps now: found before the new list is shown, which puts the new records in the
    /// table and so hides the change from a recheck.
    func replacedFiles(_ found: [Photo]) -> [(PhotoID, FileStamp)] {
        found.compactMap { photo in
            guard let id = session.table.id(of: photo.source), let stamp = photo.stamp, session.table[id].stamp != stamp else { return nil }
            return (id, stamp)
        }
    }

    /// Two lists in the scanner's order made one, in that order.
    static func merged(_ a: [Photo], _ b: [Photo]) -> [Photo] {
        guard !b.isEmpty else { return a }
        var out: [Photo] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if FolderScanner.precedes(b[j].relativePath, a[i].relativePath) { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1 }
        }
        return out + a[i...] + b[j...]
    }
}
