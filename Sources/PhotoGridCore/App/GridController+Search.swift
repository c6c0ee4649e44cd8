/// The name search (`/`), as in less and vim: typed text in the status line, the focus jumping to
/// the first match as it is typed, Enter to keep it, `n`/`N` to the next and previous match
/// (wrapping round), Esc to clear it. A match is a photo whose path below the gallery holds the
/// text, without regard to case, so a folder's name finds its photos too.
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

extension GridController {
    func startSearch() {
        search = NameSearch(origin: position.focus)
    }

    /// A key typed into the search prompt.
    func typeIntoSearch(_ key: Key) {
        guard var state = search else { return }
        switch key {
        case .escape:
            search = nil
            move(to: state.origin)
            return
        case .enter:
            state.typing = false
            if state.query.isEmpty { search = nil; return }
            if state.matches == 0 { notice = "no photo matches \"\(state.text)\"" }
            search = state
            return
        case .backspace:
            if state.query.isEmpty { search = nil; return }
            // A whole character goes: UTF-8 continuation bytes with the byte that starts them.
            while let last = state.query.popLast(), last & 0xC0 == 0x80 {}
        case .character(let c): state.query += Array(String(c).utf8)
        case .byte(let b): state.query.append(b)
        default: return
        }
        state.matches = matchingIndexes(state).count
        search = state
        // As in vim's incsearch: the first match from where the search began.
        if let first = nextMatch(state, from: state.origin, step: 1, includingStart: true) { move(to: first) } else { move(to: state.origin) }
    }

    /// `n` (1) and `N` (-1): the next match after the focus, round the ends.
    func jumpToMatch(_ step: Int) {
        guard let state = search else { return }
        if let next = nextMatch(state, from: position.focus, step: step, includingStart: false) {
            move(to: next)
        } else {
            notice = "no photo matches \"\(state.text)\""
        }
    }

    /// Every photo's path in lower case, made on the first search of a list of photos: lowering
    /// 100,000 paths took about 100 ms, too long to do again at every key typed.
    private var searchablePaths: [String] {
        if let searchIndex, searchIndex.count == session.photos.count { return searchIndex }
        let paths = session.photos.map { $0.relativePath.description.lowercased() }
        searchIndex = paths
        return paths
    }

    private func matchingIndexes(_ state: NameSearch) -> [Int] {
        guard !state.query.isEmpty else { return [] }
        let query = state.text.lowercased(), paths = searchablePaths
        return paths.indices.filter { paths[$0].contains(query) }
    }

    private func nextMatch(_ state: NameSearch, from start: Int, step: Int, includingStart: Bool) -> Int? {
        guard !state.query.isEmpty else { return nil }
        let query = state.text.lowercased(), paths = searchablePaths, count = paths.count
        for offset in (includingStart ? 0 : 1)...count {
            let index = ((start + step * offset) % count + count) % count
            if paths[index].contains(query) { return index }
        }
        return nil
    }

    /// The search as the status line shows it: a prompt while typed, then the query and its count.
    var searchStatus: String? {
        guard let search else { return nil }
        let count = search.query.isEmpty ? "" : search.matches == 0 ? "  no match" : search.matches == 1 ? "  1 match" : "  \(search.matches) matches"
        return (search.typing ? "/" + search.text + "_" : "find \"" + search.text + "\"") + count
    }
}
