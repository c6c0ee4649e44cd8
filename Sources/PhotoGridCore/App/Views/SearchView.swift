import PhotoGridMetadata
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

/// The search's prompt and its keys, over the grid: it moves the grid's focus (`Action.focus`)
/// and passes its keys on over any other screen.
final class SearchView: AppView {
    private(set) var state: NameSearch

    init(origin: Int) { state = NameSearch(origin: origin) }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        guard context.onGrid else { return .passed }
        if state.typing { return .taken(type(key, context)) }
        switch key {
        case .character("n"): return .taken(jump(1, context))
        case .character("N"): return .taken(jump(-1, context))
        case .escape: return .taken(.close(self))
        case .character("/"):
            // A new search in place of the kept one.
            state = NameSearch(origin: context.gridFocus)
            return .done
        default: return .passed
        }
    }

    /// A key typed into the prompt.
    private func type(_ key: Key, _ context: ViewContext) -> [Action] {
        switch key {
        case .escape: return [.close(self), .focusIndex(state.origin)]
        case .enter:
            state.typing = false
            if state.query.isEmpty { return [.close(self)] }
            return state.matches == 0 ? [.notice("no photo matches \"\(state.text)\"")] : []
        case .backspace:
            if state.query.isEmpty { return [.close(self)] }
            // A whole character goes: UTF-8 continuation bytes with the byte that starts them.
            while let last = state.query.popLast(), last & 0xC0 == 0x80 {}
        case .character(let c): state.query += Array(String(c).utf8)
        case .byte(let b): state.query.append(b)
        default: return []
        }
        let paths = context.gallery.searchablePaths
        state.matches = matchingIndexes(paths).count
        // As in vim's incsearch: the first match from where the search began.
        return [.focusIndex(nextMatch(paths, from: state.origin, step: 1, includingStart: true) ?? state.origin)]
    }

    /// `n` (1) and `N` (-1): the next match after the focus, round the ends.
    private func jump(_ step: Int, _ context: ViewContext) -> [Action] {
        if let next = nextMatch(context.gallery.searchablePaths, from: context.gridFocus, step: step, includingStart: false) {
            return [.focusIndex(next)]
        }
        return [.notice("no photo matches \"\(state.text)\"")]
    }

    private func matchingIndexes(_ paths: [String]) -> [Int] {
        guard !state.query.isEmpty else { return [] }
        let query = state.text.lowercased()
        return paths.indices.filter { paths[$0].contains(query) }
    }

    private func nextMatch(_ paths: [String], from start: Int, step: Int, includingStart: Bool) -> Int? {
        guard !state.query.isEmpty, !paths.isEmpty else { return nil }
        let query = state.text.lowercased(), count = paths.count
        for offset in (includingStart ? 0 : 1)...count {
            let index = ((start + step * offset) % count + count) % count
            if paths[index].contains(query) { return index }
        }
        return nil
    }

    /// A prompt while typed, then the query and its count; over the grid only.
    func prompt(_ context: ViewContext) -> String? {
        guard context.onGrid else { return nil }
        let count = state.query.isEmpty ? "" : state.matches == 0 ? "  no match" : state.matches == 1 ? "  1 match" : "  \(state.matches) matches"
        return (state.typing ? "/" + state.text + "_" : "find \"" + state.text + "\"") + count
    }

    func hint(_ context: ViewContext) -> String? {
        guard context.onGrid else { return nil }
        return state.typing ? "Enter keep  Esc cancel " : "n/N next  Esc clear "
    }
}
