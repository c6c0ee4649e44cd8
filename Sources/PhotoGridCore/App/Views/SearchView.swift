import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// The name search (`/`), as in less and vim: typed text in the status line, the focus jumping to
/// the first match as it is typed, Enter to keep it, `n`/`N` to the next and previous match
/// (wrapping round), Esc to clear it. A match is a photo whose path below the gallery holds the
/// text, without regard to case, so a folder's name finds its photos too. It acts on the grid
/// only: over the photo view, `n` is the next photo.
package struct NameSearch: Sendable, Equatable {
    /// What was typed, as bytes: a character outside ASCII comes one byte at a time.
    package var query: [UInt8] = []
    /// Still being typed (the status line shows a prompt).
    package var typing = true
    /// How many photos match, counted when the query changes.
    package var matches = 0
    /// Where the focus was when `/` was pressed: Esc while typing goes back there.
    var origin = 0

    package var text: String { String(decoding: query, as: UTF8.self) }
}

final class SearchView: AppView {
    unowned let app: GridController
    private(set) var state: NameSearch
    var grid: GridView { app.grid }

    init(app: GridController) {
        self.app = app
        state = NameSearch(origin: app.grid.position.focus)
    }

    func handle(_ key: Key) -> KeyOutcome {
        guard app.photoView == nil else { return .passed }
        if state.typing { type(key); return .done }
        switch key {
        case .character("n"): jump(1)
        case .character("N"): jump(-1)
        case .escape: app.close(self)
        case .character("/"):
            // A new search in place of the kept one.
            state = NameSearch(origin: grid.position.focus)
        default: return .passed
        }
        return .done
    }

    /// A key typed into the prompt.
    private func type(_ key: Key) {
        switch key {
        case .escape:
            app.close(self)
            grid.move(to: state.origin)
            return
        case .enter:
            state.typing = false
            if state.query.isEmpty { app.close(self); return }
            if state.matches == 0 { app.notice = "no photo matches \"\(state.text)\"" }
            return
        case .backspace:
            if state.query.isEmpty { app.close(self); return }
            // A whole character goes: UTF-8 continuation bytes with the byte that starts them.
            while let last = state.query.popLast(), last & 0xC0 == 0x80 {}
        case .character(let c): state.query += Array(String(c).utf8)
        case .byte(let b): state.query.append(b)
        default: return
        }
        state.matches = matchingIndexes().count
        // As in vim's incsearch: the first match from where the search began.
        if let first = nextMatch(from: state.origin, step: 1, includingStart: true) { grid.move(to: first) } else { grid.move(to: state.origin) }
    }

    /// `n` (1) and `N` (-1): the next match after the focus, round the ends.
    private func jump(_ step: Int) {
        if let next = nextMatch(from: grid.position.focus, step: step, includingStart: false) {
            grid.move(to: next)
        } else {
            app.notice = "no photo matches \"\(state.text)\""
        }
    }

    private func matchingIndexes() -> [Int] {
        guard !state.query.isEmpty else { return [] }
        let query = state.text.lowercased(), paths = app.gallery.searchablePaths
        return paths.indices.filter { paths[$0].contains(query) }
    }

    private func nextMatch(from start: Int, step: Int, includingStart: Bool) -> Int? {
        guard !state.query.isEmpty else { return nil }
        let query = state.text.lowercased(), paths = app.gallery.searchablePaths, count = paths.count
        for offset in (includingStart ? 0 : 1)...count {
            let index = ((start + step * offset) % count + count) % count
            if paths[index].contains(query) { return index }
        }
        return nil
    }

    /// A prompt while typed, then the query and its count; over the grid only.
    var prompt: String? {
        guard app.photoView == nil else { return nil }
        let count = state.query.isEmpty ? "" : state.matches == 0 ? "  no match" : state.matches == 1 ? "  1 match" : "  \(state.matches) matches"
        return (state.typing ? "/" + state.text + "_" : "find \"" + state.text + "\"") + count
    }

    var hint: String? {
        guard app.photoView == nil else { return nil }
        return state.typing ? "Enter keep  Esc cancel " : "n/N next  Esc clear "
    }
}
