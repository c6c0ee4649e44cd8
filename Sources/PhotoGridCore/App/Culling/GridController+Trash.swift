import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// `d` and `u`: photos moved to the freedesktop.org trash (`Trash`) with their sidecars after a
/// "y", and the last ones moved back. Nothing is ever deleted; a photo that cannot be moved stays
/// and the status line says why.
extension GridController {
    /// What the last `d` moved, for `u`: each photo with its trash entries (the photo's first),
    /// and the list of photos as it was before, for their places.
    struct Trashed {
        var moved: [(photo: Photo, entries: [Trash.Entry])]
        var before: [Photo]
    }

    /// `d`: asks, then moves the culling targets to the trash.
    func askTrash() {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): nothing is moved to the trash"; return }
        guard targets.allSatisfy({ session.table[$0].file != nil }) else {
            notice = "photos from elsewhere have no trash here: nothing moved"
            return
        }
        let what = targets.count == 1 ? session.table[targets[0]].name : "\(targets.count) photos"
        layers.append(ChoiceView(.trash(targets, what: what)))
    }

    /// Moves the photos and their sidecars.
    func moveToTrash(_ photos: [PhotoID]) {
        guard let trash = gallery.trash else { notice = "no trash: neither XDG_DATA_HOME nor HOME is set"; return }
        let all = gallery.allPhotos
        let sources = photos.map { session.table[$0].source }
        var moved: [(photo: Photo, entries: [Trash.Entry])] = [], failure: String?
        for source in sources {
            guard let photo = all.first(where: { $0.source == source }), let file = photo.file else { continue }
            do throws(Trash.Failure) {
                var entries = [try trash.move(file)]
                // The raw file shown with it goes with it, and the sidecars of both.
                for sidecar in companions(of: photo, among: all).dropFirst() {
                    // A sidecar that will not move is left beside where the photo was: the photo
                    // itself is in the trash, which is what was asked.
                    if let entry = try? trash.move(sidecar) { entries.append(entry) }
                }
                moved.append((photo, entries))
            } catch {
                failure = photo.name + " stays: " + error.description
            }
        }
        guard !moved.isEmpty else { notice = failure ?? "nothing moved"; return }
        gallery.history.append(.trashed(Trashed(moved: moved, before: all)))
        if gallery.history.count > GridController.historyLength { gallery.history.removeFirst() }
        let gone = Set(moved.flatMap { [$0.photo.source] + (gallery.raws[$0.photo.source].map { [$0.source] } ?? []) })
        let said = (moved.count == 1 ? "moved " + moved[0].photo.name : "moved \(moved.count) photos") + " to the trash (u puts back)"
        showAfterRemoving(gone, from: all, said: said)
        if let failure { notice! += "; " + failure }
    }

    /// The list without photos that went (to the trash, to another folder), their marks taken
    /// off; the photo view stays open on the photo after the one shown. `said` is the notice.
    func showAfterRemoving(_ gone: Set<PhotoSource>, from all: [Photo], said: String) {
        gallery.unmark(Set(gone.compactMap { session.table.id(of: $0) }))
        let left = all.filter { !gone.contains($0.source) }
        notice = said
        if left.isEmpty {
            // Nothing left to show: the grid keeps the last list, its tiles made again from the
            // files, which say they are gone, and the status line says why.
            reloadChanged()
            notice = said + "; the folder has no photos left"
            return
        }
        let viewed = photoView.map { session.table[$0.state.photo].source }
        let shown = gallery.photos.ids
        showList(left)
        // Said after the move, when the filter had nothing left to show.
        if let left = notice, left != said { notice = said + "; " + left }
        if let viewed, let id = session.table.id(of: viewed), let place = shown.firstIndex(of: id) {
            let after = shown[place...].first { gallery.photos.contains($0) } ?? shown[..<place].last { gallery.photos.contains($0) }
            if let after { if let photoView { photoView.state = ZoomState(photo: after) } else { openPhoto(after) } }
        }
    }

    /// `u` after `d`: the photos it moved put back where they were, in their places in the grid; a
    /// photo whose name is taken again meanwhile stays in the trash, and the status line says so.
    func undoTrash(_ last: Trashed) {
        guard let trash = gallery.trash else { notice = "nothing to put back: no trash"; return }
        var back: Set<PhotoSource> = [], failure: String?
        for (photo, entries) in last.moved {
            do throws(Trash.Failure) {
                try trash.restore(entries[0])
                back.insert(photo.source)
                for entry in entries.dropFirst() {
                    guard (try? trash.restore(entry)) != nil else { continue }
                    // Its raw file, listed again with it.
                    if let raw = last.before.first(where: { $0.file == entry.original }) { back.insert(raw.source) }
                }
            } catch {
                failure = photo.name + " stays in the trash: " + error.description
            }
        }
        guard !back.isEmpty else { notice = failure ?? "nothing put back"; return }
        let present = Set(gallery.allPhotos.map(\.source)).union(back)
        showList(last.before.filter { present.contains($0.source) })
        if let first = last.moved.first(where: { back.contains($0.photo.source) }), let id = session.table.id(of: first.photo.source),
           gallery.photos.contains(id) {
            if let photoView { photoView.state = ZoomState(photo: id) } else { grid.move(to: id, context) }
        }
        // Counted by tile: a raw file that came back with its JPEG is not one more.
        let tiles = last.moved.filter { back.contains($0.photo.source) }
        let said = tiles.count == 1 ? "put back " + tiles[0].photo.name : "put back \(tiles.count) photos"
        notice = failure.map { said + "; " + $0 } ?? said
    }
}
