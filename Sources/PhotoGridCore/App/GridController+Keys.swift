/// Keys of the grid, after less, vim and the file managers.
extension GridController {
    /// What a key asks of the event loop beyond changing the state.
    package enum KeyEffect: Equatable { case none, quit, resize, play(PhotoSource) }

    /// Panels first: the help, then the search prompt, then the details panel take the keys that
    /// close them; what is left goes to the view. `q` quits only from the bare grid.
    @discardableResult
    package func handle(_ key: Key) -> KeyEffect {
        budgetNotice.keyPressed(now: TTY.now())
        startHint = nil
        notice = nil
        if key == .resize { return .resize }
        keyPressed = true
        if showHelp {
            closeHelp()
            // The keys that close it do only that; any other closes it and does what it does.
            if [.escape, .character("q"), .character("?")].contains(key) { return .none }
        }
        if captionEdit != nil { typeIntoCaption(key); return .none }
        if search?.typing == true, zoom == nil { typeIntoSearch(key); return .none }
        if case .mouse(let action, let column, let row) = key { handleMouse(action, column: column, row: row); return .none }
        if showDetails, key == .escape || key == .character("q") { toggleDetails(); return .none }
        if key == .character("?") { openHelp(); return .none }
        if zoom != nil { return handleZoom(key) }
        let count = session.photos.count
        let columns = layout.columns
        switch key {
        case .character("q"), .character("Q"): quitRequested = true; return .quit
        case .escape: if search != nil { search = nil }
        case .character("/"): startSearch()
        case .character("n"): jumpToMatch(1)
        case .character("N"): jumpToMatch(-1)
        case .character("s"): cycleSort()
        case .character("r"): reverseOrder()
        case .character("S"): cycleGrouping()
        case .character("m"): toggleMark()
        case .character("M"): toggleMarkAll()
        case .character("o"): openElsewhere()
        case .character("y"): copyPath()
        case .character("e"): startCaptionEdit()
        case .character("."): toggleHidden()
        case .left, .character("h"): move(to: position.focus - 1)
        case .right, .character("l"): move(to: position.focus + 1)
        case .up, .character("k"), .control("p"): moveRows(-1)
        case .down, .character("j"), .control("n"): moveRows(1)
        case .pageDown, .character(" "), .control("f"): page(1)
        case .pageUp, .character("b"), .control("b"): page(-1)
        case .control("d"): moveRows(max(1, layout.fullyVisibleRows / 2))
        case .control("u"): moveRows(-max(1, layout.fullyVisibleRows / 2))
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: count - 1)
        case .enter, .character("z"):
            if let video = video(position.focus) { return .play(video) }
            openZoom(position.focus)
        // Past one column, + opens the photo, as spreading the fingers does in the photo apps.
        case .character("+"), .character("="): if columns == 1 { openZoom(position.focus) } else { setColumns(columns - 1) }
        case .character("-"), .character("_"): setColumns(columns + 1)
        case .character(let c) where ("1"..."6").contains(c): setColumns(Int(String(c))!)
        case .character("a"): session.fit = session.fit == .fill ? .fit : .fill
        case .character("i"): toggleDetails()
        case .control("l"): repaint()
        case .control("r"): rescanGallery()
        default: break
        }
        return .none
    }

    /// Photo `index` when it is a video (by its name or, once read, its content).
    func video(_ index: Int) -> PhotoSource? {
        guard session.photos.indices.contains(index) else { return nil }
        let photo = session.photos[index]
        if photo.format.isVideo { return photo.source }
        if case .unsupportedFormat(let name)? = session.pipeline.failure(forPhoto: index), name.hasSuffix(" video") { return photo.source }
        return nil
    }

    func move(to index: Int) {
        let target = max(0, min(session.photos.count - 1, index))
        if target != position.focus { direction = target > position.focus ? 1 : -1 }
        position.focus(target, photos: session.photos.count, layout: layout)
    }

    /// Up or down `rows` tile rows in the same column (the row's last photo where it is shorter,
    /// a section's last row); past the first or last row, the first or last photo.
    func moveRows(_ rows: Int) {
        let count = session.photos.count, row = layout.row(of: position.focus) + rows
        if row < 0 { move(to: 0); return }
        if row >= layout.rowCount(photos: count) { move(to: count - 1); return }
        move(to: layout.index(row: row, column: layout.column(of: position.focus), photos: count))
    }

    func page(_ screens: Int) {
        direction = screens > 0 ? 1 : -1
        position.page(by: screens, photos: session.photos.count, layout: layout)
    }
}
