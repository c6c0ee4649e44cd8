import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Word between the grid and a gallery read from elsewhere (a remote one), which the loop must
/// never wait for: the gallery says it has changed (its manifest, revalidated in the background
/// after a second visit started from the cached one) or has been read again (Ctrl-R, asked of
/// the server on a thread of its own), and the grid then reads it from the cache (`rescan`) at
/// its next frame; or it says why it could not be read again.
package final class GalleryChanges: Sendable {
    /// What the grid finds when it looks.
    package enum News: Equatable, Sendable {
        case none
        /// Read it again (from the cache).
        case changed
        case failed(String)
    }

    private struct State {
        var news = News.none
        var asking = false
        var onNews: (@Sendable () -> Void)?
        var askAgain: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    package init() {}

    /// The gallery changed, or was read again: what it is now is in the cache.
    package func post() { tell(.changed) }

    /// Reading it again failed, for this reason.
    package func post(failure: String) { tell(.failed(failure)) }

    private func tell(_ news: News) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.news = news
            state.asking = false
            return state.onNews
        }
        wake?()
    }

    /// What came since the grid last looked.
    package func take() -> News { state.withLock { state in defer { state.news = .none }; return state.news } }

    /// Whether the gallery can be asked for again (`askAgain` was given).
    package var canAskAgain: Bool { state.withLock { $0.askAgain != nil } }

    /// Ctrl-R: the gallery asked for again in the background, unless that is under way; its
    /// answer comes as news.
    package func askAgain() {
        let ask = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.asking, let ask = state.askAgain else { return nil }
            state.asking = true
            return ask
        }
        ask?()
    }

    /// How the gallery is asked for again: `body` must return at once (it starts the work).
    package func onAskAgain(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.askAgain = body } }

    /// Runs `body` (on the poster's thread) whenever news comes: the grid wakes its loop.
    package func onChange(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.onNews = body } }
}
