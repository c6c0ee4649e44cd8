import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The gallery's photos changing under the views: another order (`s`, `r`), hidden files shown
/// or not (`.`), sections (`S`), a rescan (Ctrl-R), a folder read in the background, dates read
/// for the date order, a filter, the trash. A change is a new list shown by the same session
/// (`GridSession.show`): the pipeline and the caches know photos by identity, so every tile made
/// and every job still wanted stays, and each view finds its photos in the new list
/// (`ScreenView.listChanged`).
extension GridController {
    /// Wires the grid to a gallery that can be read again and shown in other orders.
    /// `order` is the order asked for (`--sort`); a date order starts reading dates at once.
    /// `readDates` starts reading the capture dates of some photos (`CaptureDates`).
    package func allowChanges(order: PhotoOrder?, showHidden: Bool, rescan: ((Bool) throws -> [Photo])?,
                              readDates: (([Photo]) -> CaptureDates)? = nil) {
        gallery.showHidden = showHidden
        gallery.readers.changes = true
        gallery.readers.rescan = rescan
        gallery.readers.readDates = readDates
        if let order, order.key == .date { reorder(order) } else { gallery.order = order }
    }

    /// `s`: the next sort key (name, date, mtime, size).
    func cycleSort() {
        reorder((gallery.dates.pendingOrder ?? gallery.order ?? PhotoOrder()).nextKey)
    }

    /// `r`: the same key, the other way.
    func reverseOrder() {
        var next = gallery.dates.pendingOrder ?? gallery.order ?? PhotoOrder()
        next.reversed.toggle()
        reorder(next)
    }

    func reorder(_ next: PhotoOrder) {
        guard gallery.readers.changes else { return }
        gallery.dates.pendingOrder = nil
        gallery.order = next
        showList(next.apply(gallery.allPhotos, dates: gallery.dates.known))
        notice = sortNotice(next)
        if next.key == .date, gallery.readers.readDates != nil, gallery.allPhotos.contains(where: { gallery.dates.known[$0.source] == nil }) {
            // Shown at once by the dates the photos' paths and files' times suggest (the catalog's
            // where it knows them); put in the order of the dates taken once those are read
            // (`finishDateReading`), the focus kept on its photo.
            gallery.dates.pendingOrder = next
            gallery.startReadingDates()
        }
    }

    /// Once the dates are read: the date order shown on estimates put right, the focus on the
    /// same photo (on the first one when no key was pressed since start-up, for `--sort date`);
    /// the sections by day or month made again.
    func finishDateReading() {
        guard let reader = gallery.dates.reader, reader.progress.finished else { return }
        gallery.dates.known.merge(reader.dates) { $1 }
        gallery.dates.ratings.merge(reader.ratings) { $1 }
        gallery.dates.reader = nil
        // Read for the stacks alone, the dates change nothing on screen: no repaint for them.
        let forStacksOnly = gallery.stacks.waitingForDates && !gallery.grouping.byDate && gallery.dates.pendingQuery == nil
            && !screens.contains { $0 is TimeView }
        if gallery.stacks.waitingForDates {
            gallery.stacks.waitingForDates = false
            lookForStacks()
        } else if gallery.stacks.groups.isEmpty {
            // Dates read for the date order or the days: a large library's stacks come now.
            startStacks()
        }
        if let query = gallery.dates.pendingQuery {
            gallery.dates.pendingQuery = nil
            applyQuery(query)
        }
        // A catalog found damaged, or not written, on the way: said, since its dates are read again next time.
        let catalogWords = reader.notices.first
        guard let pending = gallery.dates.pendingOrder else {
            if forStacksOnly { return }
            refreshGroups()
            repaint()
            if let catalogWords { notice = catalogWords }
            return
        }
        gallery.dates.pendingOrder = nil
        guard gallery.order == pending else { return }
        showList(pending.apply(gallery.allPhotos, dates: gallery.dates.known))
        if !keyPressed { grid.move(to: 0, context) }
        notice = catalogWords ?? sortNotice(pending)
    }

    /// Said when the order changes: only for the name order, which the status line does not name
    /// (it names any other, "by date", and saying "sorted by date" beside it is saying it twice).
    func sortNotice(_ order: PhotoOrder) -> String? {
        order == PhotoOrder() ? "sorted " + order.description : nil
    }

    /// `S`: no sections, by folder, by day, by month.
    func cycleGrouping() { setGrouping(gallery.grouping.next) }

    /// Days and months go by when the photos were taken: their dates are read (in the
    /// background, as for the date order) and the sections made again when they are known.
    package func setGrouping(_ next: Grouping) {
        gallery.grouping = next
        refreshGroups()
        if next.byDate { gallery.startReadingDates() }
        notice = next == .none ? "no sections" : "sections by \(next.rawValue)"
        repaint()
    }

    /// Each photo's group again, and the layout with each group starting a row; the focused
    /// photo stays where it was on screen.
    func refreshGroups() {
        gallery.refreshGroups()
        relayoutAll()
    }

    /// A reader's news (`GalleryNews`), as the event loop hands it over.
    package func take(_ news: GalleryNews) {
        switch news {
        case .folderRead:
            finishReading()
            growReading()
        case .datesRead: finishDateReading()
        case .ratingsRead: finishRatingScan()
        case .galleryChanged: takeGalleryNews()
        case .foldersChanged: takeFolderChanges()
        case .stacksFound: takeStacks()
        }
    }

    /// Every reader's news at once, for whoever drives the controller without an event loop
    /// (the benchmark, tests).
    package func takeNews() {
        for news in [GalleryNews.folderRead, .galleryChanged, .foldersChanged, .datesRead, .ratingsRead, .stacksFound] { take(news) }
    }

    /// The whole folder once its reading is done: the grid had the photos found first.
    func finishReading() {
        guard let photos = gallery.reading?.takeFinished() else { return }
        gallery.reading = nil
        if let said = gallery.readers.leftOut?().summary { notice = said }
        guard !photos.isEmpty else { return }
        showList(gallery.arranged(photos))
        readMissingDates()
        if gallery.stacks.wanted { startStacks() }
        // What the watch saw while the folder was read.
        takeFolderChanges()
    }

    /// More of a gallery still being read: the photos settled since, after the grid's own, in
    /// the gallery's order (another order waits for the whole list). Taken when it costs
    /// nothing seen: the pipeline has nothing under way, or the focus is within two screens of
    /// the end. The photos already shown keep their places.
    func growReading() {
        guard let reading = gallery.reading, gallery.readers.changes, gallery.inScannerOrder,
              gallery.filter == .all,
              reading.grownCount > 0 else { return }
        let screen = grid.layout.columns * max(1, grid.layout.tileRows)
        guard session.pipeline.isIdle || grid.position.focus >= session.photos.count - 2 * screen else { return }
        let more = reading.takeGrown()
        session.show(PhotoList(table: session.table, ids: session.photos.ids + session.table.ids(for: more)))
        gallery.searchIndex = nil
        refreshGroups()
    }

    /// `.`: hidden files shown or hidden again.
    func toggleHidden() {
        guard gallery.reading == nil else { notice = "still reading the folder"; return }
        guard let rescan = gallery.readers.rescan else { notice = "this gallery cannot be read again"; return }
        gallery.showHidden.toggle()
        do {
            let photos = try rescan(gallery.showHidden)
            showList(gallery.arranged(photos))
            readMissingDates()
            notice = [gallery.showHidden ? "hidden files shown" : "hidden files hidden", gallery.readers.leftOut?().summary].compactMap { $0 }
                .joined(separator: "; ")
        } catch {
            gallery.showHidden.toggle()
            notice = "\(error)"
        }
    }

    /// Ctrl-R: the folder read again: new photos appear, deleted ones go, changed ones are made
    /// again. When the same photos are there, only the changed ones are remade (the caches stay).
    /// A gallery from elsewhere is asked for again in the background (`GalleryChanges`), and
    /// read when its answer comes; photos that failed are tried again at once.
    func rescanGallery() {
        guard gallery.reading == nil else { notice = "still reading the folder"; return }
        // What other programs may have written since: ratings, labels and keywords in sidecars,
        // read again (the photos' files may be the same, so their stamps say nothing of it).
        gallery.ratings.forgetAll()
        gallery.labels = [:]
        gallery.keywords = [:]
        for id in session.photos.ids { session.pipeline.forgetInfo(id) }
        if gallery.filter != .all { setFilter(gallery.filter) }
        if let changes = gallery.changes, changes.canAskAgain {
            changes.askAgain()
            reloadChanged()
            notice = "asking for the gallery again"
            return
        }
        readGalleryAgain()
    }

    /// The news of a gallery from elsewhere, at a frame: read again from the cache, or why not.
    func takeGalleryNews() {
        switch gallery.changes?.take() ?? .none {
        case .none: break
        case .changed: if gallery.readers.rescan != nil { readGalleryAgain() }
        case .failed(let why): notice = why
        }
    }

    /// The gallery read again now (`rescan`), and the grid given its photos as they are.
    func readGalleryAgain() {
        guard let rescan = gallery.readers.rescan else { reloadChanged(); return }
        let photos: [Photo]
        do { photos = try rescan(gallery.showHidden) } catch {
            // The folder itself is gone or unreadable: keep what is shown, and say why.
            notice = "\(error)"
            reloadChanged()
            return
        }
        let ordered = gallery.arranged(photos)
        if ordered.map(\.source) == gallery.allPhotos.map(\.source) {
            reloadChanged()
            notice = ["no photos added or removed", gallery.readers.leftOut?().summary].compactMap { $0 }.joined(separator: "; ")
            return
        }
        let before = Set(gallery.allPhotos.map(\.source)), after = Set(ordered.map(\.source))
        let added = after.subtracting(before).count, removed = before.subtracting(after).count
        // A photo back under a name it had, with another file: not from its old tiles.
        let replaced = replacedFiles(ordered.filter { !before.contains($0.source) })
        showList(ordered)
        session.pipeline.filesChanged(replaced)
        readMissingDates()
        notice = ["\(added) added, \(removed) removed", gallery.readers.leftOut?().summary].compactMap { $0 }.joined(separator: "; ")
    }

    /// In the date order or sections by day or month, photos that came in by a rescan have their
    /// dates read, and the order and sections are made again when they are (until then they go
    /// by their file's time).
    func readMissingDates() {
        let sorted = gallery.order?.key == .date, grouped = gallery.grouping.byDate
        guard sorted || grouped, gallery.allPhotos.contains(where: { gallery.dates.known[$0.source] == nil }) else { return }
        if sorted && gallery.dates.pendingOrder == nil { gallery.dates.pendingOrder = gallery.order }
        gallery.startReadingDates()
    }

    /// The views show `listed` now, less what the rating filter hides: each view finds its photos
    /// in the new list (the grid its focused one, else the one at its place), and a view whose
    /// photos are gone closes. Nothing made is let go.
    func showList(_ listed: [Photo]) {
        // A raw file beside a JPEG of its name is one tile with it.
        let (all, raws) = RawPairs.pair(listed)
        var filter = gallery.filter
        var photos = gallery.ratings.kept(all, by: filter)
        if gallery.query != nil { photos = photos.filter { gallery.queryMatches.contains($0.source) } }
        if photos.isEmpty && !all.isEmpty {
            // The last photo the filters showed went (to the trash, or in a rescan): the grid
            // shows them all again rather than a photo that is not there.
            let words = [filter.words, gallery.query?.description].compactMap { $0 }.joined(separator: ", ")
            notice = (words.isEmpty ? "no photo left" : "no photo left (" + words + ")") + ": all shown"
            filter = .all
            gallery.filter = .all
            gallery.query = nil
            photos = all
        }
        guard gallery.readers.changes, !photos.isEmpty else { return }
        // A closed stack is its first photo (`GridController+Stacks`).
        let stacked = gallery.stacks.collapse(photos)
        photos = stacked.shown
        gallery.stacks.hidden = stacked.hidden
        gallery.filtering.unfiltered = filter == .all && gallery.query == nil && stacked.hidden == 0 ? nil : all
        gallery.listed = raws.isEmpty ? nil : listed
        gallery.raws = raws
        session.show(photos)
        gallery.searchIndex = nil
        gallery.refreshGroups()
        let context = self.context
        for view in screens.reversed() where !view.listChanged(context) { close(view) }
        _ = grid.listChanged(context)
        needsClear = true
    }
}
