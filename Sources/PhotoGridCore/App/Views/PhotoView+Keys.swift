import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Keys of the photo view; the mouse's wheel steps between photos, a double click goes back.
extension PhotoView {
    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        if case .mouse(let action, _, _) = key {
            switch action {
            case .wheelUp: return handle(.character("p"), context)
            case .wheelDown: return handle(.character("n"), context)
            case .doubleClick: return .taken(.close(self))
            case .click: return .done
            }
        }
        let ids = context.photos.ids, here = place(context)
        func step(_ by: Int) {
            let target = max(0, min(ids.count - 1, here + by))
            guard target != here else { return }
            direction = by > 0 ? 1 : -1
            state = ZoomState(photo: ids[target])
        }
        func pan(_ dx: Double, _ dy: Double) {
            guard let (_, geometry) = request(&state, context) else { return }
            state.pan(dx: dx, dy: dy, visible: geometry.region)
        }
        var actions: [Action] = []
        switch key {
        case .character("Q"): return .taken(.quit)
        case .character("q"), .escape: actions = [.close(self)]
        case .character("?"): actions = [.openHelp]
        case .character("s"): actions = [toggleSlideshow(context)]
        case .enter: if let video = context.gallery.video(state.photo) { return .taken(.play(video)) }
        case .character("+"): state.zoomIn()
        case .character("-"), .character("_"):
            if state.isZoomedIn { state.zoomOut() } else { actions = [.close(self)] }
        case .character("="): state.fit()
        // Stars as culling tools key them; 0 takes them off.
        case .character(let c) where ("0"..."5").contains(c): actions = [.rate(Int(String(c))!)]
        case .character("x"): actions = [.toggleReject]
        case .character("d"): actions = [.askTrash]
        case .character("u"): actions = [.undo]
        case .character("C"): actions = [.askTransfer(copy: true)]
        case .character("V"): actions = [.askTransfer(copy: false)]
        case .character("["): actions = [.rotate(clockwise: false)]
        case .character("]"): actions = [.rotate(clockwise: true)]
        case .character("c"): actions = [.openCompare]
        case .character("v"): actions = toggleRaw(context)
        case .character("n"), .pageDown, .character(" "): step(1)
        case .character("p"), .pageUp, .backspace: step(-1)
        case .character("g"), .home: step(-here)
        case .character("G"), .end: step(ids.count - 1 - here)
        case .left, .character("h"): if state.isZoomedIn { pan(-1, 0) } else { step(-1) }
        case .right, .character("l"): if state.isZoomedIn { pan(1, 0) } else { step(1) }
        case .up, .character("k"): if state.isZoomedIn { pan(0, -1) }
        case .down, .character("j"): if state.isZoomedIn { pan(0, 1) }
        case .character("i"): actions = [.toggleDetails]
        case .character("m"): actions = [.mark(state.photo)]
        case .character("o"): actions = [.openElsewhere]
        case .character("y"): actions = [.copyPath]
        case .character("e"):
            // A slideshow would move on from the photo while its caption is typed.
            slideshowDue = nil
            actions = [.editCaption]
        case .control("l"): actions = [.repaint]
        case .control("r"): actions = [.reloadChanged]
        default: break
        }
        return .taken(actions)
    }

    /// `s`: the next photo every `slideshowSeconds`, round to the first after the last, until `s`
    /// again or the view closes.
    func toggleSlideshow(_ context: ViewContext) -> Action {
        let seconds = context.settings.slideshowSeconds
        slideshowDue = slideshowDue == nil ? context.clock.now() + seconds * 1000 : nil
        return .notice(slideshowDue == nil ? "slideshow stopped" : "slideshow: a photo every \(seconds) s (s stops)")
    }

    /// The next photo when its time has come.
    func advanceSlideshow(now: Int, _ context: ViewContext) {
        guard let due = slideshowDue, now >= due else { return }
        let ids = context.photos.ids, here = place(context)
        guard !ids.isEmpty else { return }
        direction = 1
        state = ZoomState(photo: ids[here + 1 < ids.count ? here + 1 : 0])
        slideshowDue = now + context.settings.slideshowSeconds * 1000
    }
}
