import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Keys of the photo view; the mouse's wheel steps between photos, a double click goes back.
extension PhotoView {
    func handle(_ key: Key) -> KeyOutcome {
        if case .mouse(let action, _, _) = key {
            switch action {
            case .wheelUp: return handle(.character("p"))
            case .wheelDown: return handle(.character("n"))
            case .doubleClick: app.closePhoto()
            case .click: break
            }
            return .done
        }
        let count = session.photos.count
        func step(_ by: Int) {
            let target = max(0, min(count - 1, state.photo + by))
            guard target != state.photo else { return }
            direction = by > 0 ? 1 : -1
            state = ZoomState(photo: target)
        }
        func pan(_ dx: Double, _ dy: Double) {
            guard let (_, geometry) = request(&state) else { return }
            state.pan(dx: dx, dy: dy, visible: geometry.region)
        }
        switch key {
        case .character("Q"): return .taken(.quit)
        case .character("q"), .escape: app.closePhoto()
        case .character("?"): app.openHelp()
        case .character("s"): toggleSlideshow()
        case .enter: if let video = app.video(state.photo) { return .taken(.play(video)) }
        case .character("+"): state.zoomIn()
        case .character("-"), .character("_"):
            if state.isZoomedIn { state.zoomOut() } else { app.closePhoto() }
        case .character("="): state.fit()
        // Stars as culling tools key them; 0 takes them off.
        case .character(let c) where ("0"..."5").contains(c): app.rate(Int(String(c))!)
        case .character("x"): app.toggleReject()
        case .character("d"): app.askTrash()
        case .character("u"): app.undoTrash()
        case .character("c"): app.openCompare()
        case .character("v"): toggleRaw()
        case .character("n"), .pageDown, .character(" "): step(1)
        case .character("p"), .pageUp, .backspace: step(-1)
        case .character("g"), .home: step(-state.photo)
        case .character("G"), .end: step(count - 1 - state.photo)
        case .left, .character("h"): if state.isZoomedIn { pan(-1, 0) } else { step(-1) }
        case .right, .character("l"): if state.isZoomedIn { pan(1, 0) } else { step(1) }
        case .up, .character("k"): if state.isZoomedIn { pan(0, -1) }
        case .down, .character("j"): if state.isZoomedIn { pan(0, 1) }
        case .character("i"): app.toggleDetails()
        case .character("m"): app.toggleMark(state.photo)
        case .character("o"): app.openElsewhere()
        case .character("y"): app.copyPath()
        case .character("e"):
            // A slideshow would move on from the photo while its caption is typed.
            slideshowDue = nil
            app.startCaptionEdit()
        case .control("l"): app.repaint()
        case .control("r"): app.reloadChanged()
        default: break
        }
        return .done
    }

    /// `s`: the next photo every `slideshowSeconds`, round to the first after the last, until `s`
    /// again or the view closes.
    func toggleSlideshow() {
        let seconds = app.settings.slideshowSeconds
        slideshowDue = slideshowDue == nil ? app.clock.now() + seconds * 1000 : nil
        app.notice = slideshowDue == nil ? "slideshow stopped" : "slideshow: a photo every \(seconds) s (s stops)"
    }

    /// The next photo when its time has come.
    func advanceSlideshow(now: Int) {
        guard let due = slideshowDue, now >= due else { return }
        let next = state.photo + 1 < session.photos.count ? state.photo + 1 : 0
        direction = 1
        state = ZoomState(photo: next)
        slideshowDue = now + app.settings.slideshowSeconds * 1000
    }
}
