import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// A question on the status line answered by one key, as vim's and lf's are: the rating prompt
/// (`R`, then 0-5), the filter (`f`, then a number or `x`), the trash's "y/n" (`d`). The key is
/// handed to `answer`, which says what it did on the status line; Esc, or a key that is no
/// answer, closes it with nothing done.
final class ChoiceView: AppView {
    unowned let app: GridController
    let question: String
    /// Takes the key; false when it is no answer (the question closes, nothing done).
    let answer: (Key) -> Bool

    init(app: GridController, question: String, answer: @escaping (Key) -> Bool) {
        self.app = app
        self.question = question
        self.answer = answer
    }

    func handle(_ key: Key) -> KeyOutcome {
        app.close(self)
        if !answer(key), app.notice == nil { app.notice = "nothing done" }
        return .done
    }

    var prompt: String? { question }
    var hint: String? { "Esc cancel " }
}
