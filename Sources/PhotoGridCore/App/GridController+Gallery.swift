/// The gallery's photos changing under the grid: another order (`s`, `r`), hidden files shown
/// or not (`.`), and a rescan (Ctrl-R). The pipeline and caches know photos by their index, so
/// a new list gets a new session; the focus stays on the same photo. The disk cache keeps the
/// tiles already made, so the new screen comes mostly from there.
extension GridController {
    /// Wires the grid to a gallery that can be read again and shown in other orders.
    public func allowChanges(order: PhotoOrder?, showHidden: Bool, makeSession: @escaping ([Photo]) -> GridSession,
                             rescan: ((Bool) throws -> [Photo])?) {
        self.order = order
        self.showHidden = showHidden
        self.makeSession = makeSession
        self.rescan = rescan
    }

    /// `s`: the next sort key (name, mtime, size).
    func cycleSort() {
        let next = (order ?? PhotoOrder()).nextKey
        reorder(next)
    }

    /// `r`: the same key, the other way.
    func reverseOrder() {
        var next = order ?? PhotoOrder()
        next.reversed.toggle()
        reorder(next)
    }

    private func reorder(_ next: PhotoOrder) {
        guard makeSession != nil else { return }
        order = next
        replacePhotos(next.apply(session.photos))
        notice = "sorted " + next.description
    }

    /// `.`: hidden files shown or hidden again.
    func toggleHidden() {
        guard let rescan else { notice = "this gallery cannot be read again"; return }
        showHidden.toggle()
        do {
            let photos = try rescan(showHidden)
            replacePhotos(order.map { $0.apply(photos) } ?? photos)
            notice = showHidden ? "hidden files shown" : "hidden files hidden"
        } catch {
            showHidden.toggle()
            notice = "\(error)"
        }
    }

    /// Ctrl-R: the folder read again: new photos appear, deleted ones go, changed ones are made
    /// again. When the same photos are there, only the changed ones are remade (the caches stay).
    func rescanGallery() {
        guard let rescan else { reloadChanged(); return }
        let photos: [Photo]
        do { photos = try rescan(showHidden) } catch {
            // The folder itself is gone or unreadable: keep what is shown, and say why.
            notice = "\(error)"
            reloadChanged()
            return
        }
        let ordered = order.map { $0.apply(photos) } ?? photos
        if ordered.map(\.path) == session.photos.map(\.path) {
            reloadChanged()
            notice = "no photos added or removed"
            return
        }
        let before = Set(session.photos.map(\.path)), after = Set(ordered.map(\.path))
        let added = after.subtracting(before).count, removed = before.subtracting(after).count
        replacePhotos(ordered)
        notice = "\(added) added, \(removed) removed"
    }

    /// The grid shows `photos` now, with the focused photo still focused (else the one at its
    /// place) and the zoom view, if open, on the same photo (else closed).
    func replacePhotos(_ photos: [Photo]) {
        guard let makeSession, !photos.isEmpty else { return }
        let focused = session.photos[position.focus].path
        let zoomed = zoom.map { session.photos[$0.photo].path }
        let fit = session.fit
        session.pipeline.stop()
        session.cache.removeAll()
        session = makeSession(photos)
        session.fit = fit
        let focus = photos.firstIndex { $0.path == focused } ?? min(position.focus, photos.count - 1)
        position.focus(focus, photos: photos.count, layout: layout)
        if let zoomed {
            if let index = photos.firstIndex(where: { $0.path == zoomed }) { zoom = ZoomState(photo: index) } else { zoom = nil }
        }
        if let kitty { pendingBytes += kitty.forgetAll() }
        repaint()
    }
}
