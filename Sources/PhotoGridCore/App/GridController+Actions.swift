import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What the views ask for, done: the one place where a key's consequences beyond a view's own
/// state happen (house style 23).
extension GridController {
    /// Applies `actions` in order; what the event loop must do beyond the state (quit, play).
    @discardableResult
    func apply(_ actions: [Action]) -> KeyEffect {
        var effect = KeyEffect.none
        for action in actions {
            switch apply(action) {
            case .none: break
            case let other: effect = other
            }
        }
        if effect == .quit { quitRequested = true }
        return effect
    }

    private func apply(_ action: Action) -> KeyEffect {
        switch action {
        case .quit: return .quit
        case .play(let video): return .play(video)
        case .notice(let text): notice = text
        case .repaint: repaint()
        case .clearScreen: needsClear = true
        case .panelChanged: panelChanged()
        case .close(let view): close(view)
        case .openPhoto(let photo): openPhoto(photo)
        case .openCompare: openCompare()
        case .openTime(let scale): openTime(scale)
        case .openHelp: openHelp()
        case .toggleDetails: toggleDetails()
        case .startSearch: startSearch()
        case .editCaption: startCaptionEdit()
        case .focus(let photo): grid.move(to: photo, context)
        case .focusIndex(let index): grid.move(to: index, context)
        case .cycleSort: cycleSort()
        case .reverseOrder: reverseOrder()
        case .cycleGrouping: cycleGrouping()
        case .toggleHidden: toggleHidden()
        case .toggleFit: session.fit = session.fit == .fill ? .fit : .fill
        case .rescan: rescanGallery()
        case .reloadChanged: reloadChanged()
        case .mark(let photo):
            // A closed stack's photos are marked or unmarked together, as its tile shows them.
            let on = gallery.toggleMark(photo)
            for member in expandingStacks([photo]) where member != photo { if gallery.marked.contains(member) != on { _ = gallery.toggleMark(member) } }
            notice = on ? "marked" : "unmarked"
        case .markAll: gallery.toggleMarkAll()
        case .openElsewhere: openElsewhere()
        case .copyPath: copyPath()
        case .saveCaption(let edit): saveCaption(edit)
        case .askRating: askRating()
        case .askLabel: askLabel()
        case .labelThese(let photos, let label): setLabel(photos, label)
        case .askKeywords: askKeywords()
        case .setKeywords(let photos, let adding, let removing): setKeywords(photos, adding: adding, removing: removing)
        case .rate(let rating): rate(cullingTargets, rating)
        case .rateThese(let photos, let rating): rate(photos, rating)
        case .toggleReject: toggleReject()
        case .askFilter: layers.append(ChoiceView(.filter))
        case .setFilter(let filter): setFilter(filter)
        case .askQuery: layers.append(FilterView(current: gallery.query))
        case .setQuery(let query): setQuery(query)
        case .askTrash: askTrash()
        case .trash(let photos): moveToTrash(photos)
        case .askTransfer(let copy): askTransfer(copy: copy)
        case .transfer(let photos, let folder, let copy): transfer(photos, to: folder, copy: copy)
        case .toggleStack: toggleStack()
        case .rotate(let clockwise): rotate(cullingTargets, clockwise: clockwise)
        case .undo: undoLast()
        }
        return .none
    }

    /// Enter in the caption prompt: the caption into the photo's sidecar, or why not.
    func saveCaption(_ edit: CaptionEdit) {
        let text = String(decoding: edit.text, as: UTF8.self).trimmingWhitespace
        guard text != String(decoding: edit.original, as: UTF8.self).trimmingWhitespace else {
            notice = "caption not changed"
            return
        }
        let sidecar = Sidecar.of(edit.photo)
        if let problem = sidecar.save(caption: text) {
            notice = sidecar.message(problem) + "; caption not saved"
            return
        }
        notice = text.isEmpty ? "caption taken out of " + sidecar.name : "caption saved in " + sidecar.name
        if let id = session.table.id(of: .file(edit.photo)) { session.pipeline.forgetInfo(id) }
        panelChanged()
    }
}
