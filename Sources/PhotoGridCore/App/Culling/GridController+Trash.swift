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
                // The raw file shown with it goes with it.
                var others = sidecars(of: photo, among: all)
                if let raw = gallery.raws[photo.source], let rawFile = raw.file {
                    others = [rawFile] + sidecars(of: raw, among: all) + others
                }
                for sidecar in others {
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
        gallery.lastTrashed = Trashed(moved: moved, before: all)
        let gone = Set(moved.flatMap { [$0.photo.source] + (gallery.raws[$0.photo.source].map { [$0.source] } ?? []) })
        gallery.unmark(Set(gone.compactMap { session.table.id(of: $0) }))
        let left = all.filter { !gone.contains($0.source) }
        let said = (moved.count == 1 ? "moved " + moved[0].photo.name : "moved \(moved.count) photos") + " to the trash (u puts back)"
        notice = failure.map { said + "; " + $0 } ?? said
        if left.isEmpty {
            // Nothing left to show: the grid keeps the last list, its tiles made again from the
            // files, which say they are gone, and the status line says why.
            reloadChanged()
            notice! += "; the folder has no photos left"
            return
        }
        // The photo view stays open, on the photo that came after the one shown.
        let viewed = photoView.map { session.table[$0.state.photo].source }
        let shown = gallery.photos.ids
        let emptied = notice
        showList(left)
        // Said after the move, when the filter had nothing left to show.
        if let left = notice, left != emptied { notice = said + "; " + left }
        if let viewed, let id = session.table.id(of: viewed), let place = shown.firstIndex(of: id) {
            let after = shown[place...].first { gallery.photos.contains($0) } ?? shown[..<place].last { gallery.photos.contains($0) }
            if let after { if let photoView { photoView.state = ZoomState(photo: after) } else { openPhoto(after) } }
        }
    }

    /// The sidecars that go with a photo: its own `photo.jpg.xmp`, and Lightroom's `photo.xmp`
    /// when no other photo of the gallery in that folder shares its name (a RAW beside its JPEG).
    private func sidecars(of photo: Photo, among all: [Photo]) -> [RawPath] {
        guard let file = photo.file else { return [] }
        var found: [RawPath] = []
        let own = Sidecar(photo: file).path
        if own.linkStatus() != nil { found.append(own) }
        let shared = Sidecar.of(file).path
        if shared != own, shared.linkStatus() != nil {
            let stem = shared.bytes.dropLast(4)
            let others = all.contains { other in
                guard let path = other.file, path != file else { return false }
                return path.bytes.starts(with: stem) && path.bytes.dropFirst(stem.count).first == UInt8(ascii: ".")
                    && !path.bytes.dropFirst(stem.count + 1).contains(UInt8(ascii: "/"))
            }
            if !others { found.append(shared) }
        }
        return found
    }

    /// `u`: the photos of the last `d` put back where they were, in their places in the grid; a
    /// photo whose name is taken again meanwhile stays in the trash, and the status line says so.
    func undoTrash() {
        guard let last = gallery.lastTrashed, let trash = gallery.trash else { notice = "nothing to put back"; return }
        gallery.lastTrashed = nil
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
