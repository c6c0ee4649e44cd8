import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// A question on the status line answered by one key, as vim's and lf's are: the rating prompt
/// (`R`, then 0-5 or x), the filter (`f`, then a number or `x`), the trash's "y/n" (`d`). Esc,
/// or a key that is no answer, closes it with nothing done.
final class ChoiceView: AppView {
    enum Question {
        /// Stars for these photos.
        case rating([PhotoID])
        /// A colour label for these photos.
        case label([PhotoID])
        /// Which photos to show by rating.
        case filter
        /// Whether these photos go to the trash.
        case trash([PhotoID], what: String)
    }

    let question: Question

    init(_ question: Question) { self.question = question }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        let answer: [Action]? = {
            switch (question, key) {
            case (.rating(let photos), .character(let c)) where ("0"..."5").contains(c): return [.rateThese(photos, Int(String(c))!)]
            case (.rating(let photos), .character("x")): return [.rateThese(photos, -1)]
            case (.label(let photos), .character(let c)) where ColourLabel.byKey[c] != nil: return [.labelThese(photos, ColourLabel.byKey[c]!)]
            case (.label(let photos), .character("0")): return [.labelThese(photos, "")]
            case (.filter, .character(let c)) where ("1"..."5").contains(c): return [.setFilter(.atLeast(Int(String(c))!))]
            case (.filter, .character("0")): return [.setFilter(.all)]
            case (.filter, .character("x")): return [.setFilter(.rejected)]
            case (.trash(let photos, _), .character("y")), (.trash(let photos, _), .character("Y")): return [.trash(photos)]
            case (.trash, _): return [.notice("nothing moved")]
            default: return nil
            }
        }()
        return .taken([.close(self)] + (answer ?? [.notice("nothing done")]))
    }

    func prompt(_ context: ViewContext) -> String? {
        switch question {
        case .rating(let photos):
            return photos.count > 1 ? "rate \(photos.count) marked photos: 1-5 stars, 0 none, x reject" : "rate: 1-5 stars, 0 none, x reject"
        case .label(let photos):
            return (photos.count > 1 ? "label \(photos.count) marked photos" : "label") + ": r red, y yellow, g green, b blue, p purple, 0 none"
        case .filter: return "show: 1-5 at least that many stars, x rejects, 0 all"
        case .trash(_, let what): return "move \(what) to the trash? y/n"
        }
    }

    func hint(_ context: ViewContext) -> String? { "Esc cancel " }
}
