import PhotoGridCatalog
import PhotoGridModel
import PhotoGridTerminal

/// The filter's prompt (`\`, Lightroom's key for its filter bar): the terms typed on the status
/// line, starting from the filter on now; Enter applies them (an empty line turns the filter
/// off), Esc leaves it as it was. A mistake is said and the prompt stays, to be put right.
final class FilterView: AppView {
    private(set) var line: TypedLine

    init(current: PhotoQuery?) { line = TypedLine(bytes: Array((current?.description ?? "").utf8)) }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        switch key {
        case .escape: return .taken([.close(self)])
        case .enter:
            guard line.text.contains(where: { $0 != " " }) else { return .taken([.close(self), .setQuery(nil)]) }
            do {
                return .taken([.close(self), .setQuery(try PhotoQuery(parsing: line.text))])
            } catch {
                return .taken([.notice(error.description)])
            }
        case .backspace where line.bytes.isEmpty: return .taken([.close(self)])
        default: line.take(key) { $0.count <= 1000 }
        }
        return .done
    }

    func prompt(_ context: ViewContext) -> String? {
        "filter: " + line.shown(room: max(10, context.screen.columns - 40)) + "_"
    }

    func hint(_ context: ViewContext) -> String? { "Enter apply (empty: all)  Esc cancel " }
}
