import PhotoGridCatalog
import PhotoGridModel
import PhotoGridTerminal

/// The filter's prompt (`\`, Lightroom's key for its filter bar): the terms typed on the status
/// line, starting from the filter on now; Enter applies them (an empty line turns the filter
/// off), Esc leaves it as it was. A mistake is said and the prompt stays, to be put right.
final class FilterView: AppView {
    private(set) var text: [UInt8]

    init(current: PhotoQuery?) { text = Array((current?.description ?? "").utf8) }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        switch key {
        case .escape: return .taken([.close(self)])
        case .enter:
            let typed = String(decoding: text, as: UTF8.self)
            guard typed.contains(where: { $0 != " " }) else { return .taken([.close(self), .setQuery(nil)]) }
            do {
                return .taken([.close(self), .setQuery(try PhotoQuery(parsing: typed))])
            } catch {
                return .taken([.notice(error.description)])
            }
        case .backspace:
            if text.isEmpty { return .taken([.close(self)]) }
            while let last = text.popLast(), last & 0xC0 == 0x80 {}
        // As in readline and the shells: Ctrl-U clears the line, Ctrl-W the last word.
        case .control("u"): text = []
        case .control("w"):
            while text.last == UInt8(ascii: " ") { text.removeLast() }
            while let last = text.last, last != UInt8(ascii: " ") { text.removeLast() }
        case .character(let c): if text.count < 1000 { text += Array(String(c).utf8) }
        case .byte(let b): if text.count < 1000 { text.append(b) }
        default: break
        }
        return .done
    }

    func prompt(_ context: ViewContext) -> String? {
        let typed = String(decoding: text, as: UTF8.self)
        let room = max(10, context.screen.columns - 40)
        return "filter: " + (typed.count > room ? "~" + String(typed.suffix(room - 1)) : typed) + "_"
    }

    func hint(_ context: ViewContext) -> String? { "Enter apply (empty: all)  Esc cancel " }
}
