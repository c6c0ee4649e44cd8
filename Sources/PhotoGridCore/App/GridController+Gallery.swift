/// The gallery's photos changing under the grid: another order (`s`, `r`), hidden files shown
/// or not (`.`), and a rescan (Ctrl-R). The pipeline and caches know photos by their index, so
/// a new list gets a new session; the focus stays on the same photo. The disk cache keeps the
/// tiles already made, so the new screen comes mostly from there.
extension GridController {
    /// Wires the grid to a gallery that can be read again and shown in other orders.
    /// `order` is the order asked for (`--sort`); a date order starts reading dates at once.
    /// `readDates` starts reading the capture dates of some photos (`CaptureDates`).
    package func allowChanges(order: PhotoOrder?, showHidden: Bool, makeSession: @escaping ([Photo]) -> GridSession,
                             rescan: ((Bool) throws -> [Photo])?, readDates: (([Photo]) -> CaptureDates)? = nil) {
        self.showHidden = showHidden
        self.makeSession = makeSession
        self.rescan = rescan
        self.readDates = readDates
        if let order, order.key == .date { reorder(order) } else { self.order = order }
    }

    /// `s`: the next sort key (name, date, mtime, size).
    func cycleSort() {
        reorder((pendingOrder ?? order ?? PhotoOrder()).nextKey)
    }

    /// `r`: the same key, the other way.
    func reverseOrder() {
        var next = pendingOrder ?? order ?? PhotoOrder()
        next.reversed.toggle()
        reorder(next)
    }

    private func reorder(_ next: PhotoOrder) {
        guard makeSession != nil else { return }
        pendingOrder = nil
        if next.key == .date, readDates != nil, session.photos.contains(where: { knownDates[$0.source] == nil }) {
            // Read first; the new order comes when the dates are known (`finishDateReading`).
            pendingOrder = next
            startReadingDates()
            return
        }
        order = next
        replacePhotos(next.apply(session.photos, dates: knownDates))
        notice = sortNotice(next)
    }

    /// Reads the capture dates not known yet, unless a reading is under way.
    func startReadingDates() {
        guard dateReader == nil, let readDates else { return }
        let missing = session.photos.filter { knownDates[$0.source] == nil }
        if !missing.isEmpty { dateReader = readDates(missing) }
    }

    /// Once the dates are read: the date order if one waits for them, the focus on the same
    /// photo (on the first one when no key was pressed since start-up, for `--sort date`); the
    /// sections by day or month made again.
    func finishDateReading() {
        guard let reader = dateReader, reader.progress.finished else { return }
        knownDates.merge(reader.dates) { $1 }
        dateReader = nil
        guard let pending = pendingOrder else {
            refreshGroups()
            repaint()
            return
        }
        pendingOrder = nil
        order = pending
        replacePhotos(pending.apply(session.photos, dates: knownDates))
        if !keyPressed { move(to: 0) }
        notice = sortNotice(pending)
    }

    /// Said when the order changes: only for the name order, which the status line does not name
    /// (it names any other, "by date", and saying "sorted by date" beside it is saying it twice).
    func sortNotice(_ order: PhotoOrder) -> String? {
        order == PhotoOrder() ? "sorted " + order.description : nil
    }

    /// "reading dates 1200 of 40000" while a date order waits for them.
    var dateProgress: String? {
        guard let reader = dateReader else { return nil }
        return "reading dates \(reader.progress.done) of \(reader.total)"
    }

    /// The whole folder once its reading is done: the grid had the photos found first.
    func finishReading() {
        guard let photos = reading?.finished else { return }
        reading = nil
        if let said = leftOut?().summary { notice = said }
        guard !photos.isEmpty else { return }
        replacePhotos(arranged(photos))
        readMissingDates()
    }

    /// `.`: hidden files shown or hidden again.
    func toggleHidden() {
        guard reading == nil else { notice = "still reading the folder"; return }
        guard let rescan else { notice = "this gallery cannot be read again"; return }
        showHidden.toggle()
        do {
            let photos = try rescan(showHidden)
            replacePhotos(arranged(photos))
            readMissingDates()
            notice = [showHidden ? "hidden files shown" : "hidden files hidden", leftOut?().summary].compactMap { $0 }.joined(separator: "; ")
        } catch {
            showHidden.toggle()
            notice = "\(error)"
        }
    }

    /// Ctrl-R: the folder read again: new photos appear, deleted ones go, changed ones are made
    /// again. When the same photos are there, only the changed ones are remade (the caches stay).
    /// A gallery from elsewhere is asked for again in the background (`GalleryChanges`), and
    /// read when its answer comes; photos that failed are tried again at once.
    func rescanGallery() {
        guard reading == nil else { notice = "still reading the folder"; return }
        if let changes, changes.canAskAgain {
            changes.askAgain()
            reloadChanged()
            notice = "asking for the gallery again"
            return
        }
        readGalleryAgain()
    }

    /// The news of a gallery from elsewhere, at a frame: read again from the cache, or why not.
    func takeGalleryNews() {
        switch changes?.take() ?? .none {
        case .none: break
        case .changed: if rescan != nil { readGalleryAgain() }
        case .failed(let why): notice = why
        }
    }

    /// The gallery read again now (`rescan`), and the grid given its photos as they are.
    func readGalleryAgain() {
        guard let rescan else { reloadChanged(); return }
        let photos: [Photo]
        do { photos = try rescan(showHidden) } catch {
            // The folder itself is gone or unreadable: keep what is shown, and say why.
            notice = "\(error)"
            reloadChanged()
            return
        }
        let ordered = arranged(photos)
        if ordered.map(\.source) == session.photos.map(\.source) {
            reloadChanged()
            notice = ["no photos added or removed", leftOut?().summary].compactMap { $0 }.joined(separator: "; ")
            return
        }
        let before = Set(session.photos.map(\.source)), after = Set(ordered.map(\.source))
        let added = after.subtracting(before).count, removed = before.subtracting(after).count
        replacePhotos(ordered)
        readMissingDates()
        notice = ["\(added) added, \(removed) removed", leftOut?().summary].compactMap { $0 }.joined(separator: "; ")
    }

    /// In the date order or sections by day or month, photos that came in by a rescan have their
    /// dates read, and the order and sections are made again when they are (until then they go
    /// by their file's time).
    private func readMissingDates() {
        let sorted = order?.key == .date, grouped = grouping == .day || grouping == .month
        guard sorted || grouped, session.photos.contains(where: { knownDates[$0.source] == nil }) else { return }
        if sorted && pendingOrder == nil { pendingOrder = order }
        startReadingDates()
    }

    /// A list just read from the gallery in the current order. The scanner's is in name order
    /// already, and sorting 100,000 paths again would hold up the event loop for nothing.
    private func arranged(_ scanned: [Photo]) -> [Photo] {
        guard let order, order != PhotoOrder() else { return scanned }
        return order.apply(scanned, dates: knownDates)
    }

    /// The grid shows `photos` now, with the focused photo still focused (else the one at its
    /// place) and the zoom view, if open, on the same photo (else closed).
    func replacePhotos(_ photos: [Photo]) {
        guard let makeSession, !photos.isEmpty else { return }
        let focused = session.photos[position.focus].source
        let zoomed = zoom.map { session.photos[$0.photo].source }
        let fit = session.fit
        session.pipeline.stop()
        session.cache.removeAll()
        session = makeSession(photos)
        session.fit = fit
        refreshGroups()
        let focus = photos.firstIndex { $0.source == focused } ?? min(position.focus, photos.count - 1)
        position.focus(focus, photos: photos.count, layout: layout)
        if let zoomed {
            if let index = photos.firstIndex(where: { $0.source == zoomed }) { zoom = ZoomState(photo: index) } else { zoom = nil }
        }
        searchIndex = nil
        pendingBytes += canvas.forgetAll()
        repaint()
    }
}
