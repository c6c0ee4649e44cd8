/// Word from elsewhere that a gallery has changed since the grid read it (a remote gallery's
/// manifest, revalidated in the background after a second visit started from the cached one):
/// the grid reads it again (Ctrl-R's rescan) at its next frame.
package final class GalleryChanges: Sendable {
    private let state = Locked<(changed: Bool, inCache: Bool, onChange: (@Sendable () -> Void)?)>((false, false, nil))

    package init() {}

    /// The gallery changed, and what it is now is in the cache: the grid is woken to read it again.
    package func post() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.changed = true
            state.inCache = true
            return state.onChange
        }
        wake?()
    }

    /// Whether it changed since last asked.
    package func take() -> Bool { state.withLock { state in defer { state.changed = false }; return state.changed } }

    /// Whether the gallery as it is now was posted as in the cache since last asked: then it is
    /// read from there, not asked of the server once more.
    package func takeInCache() -> Bool { state.withLock { state in defer { state.inCache = false }; return state.inCache } }

    /// Runs `body` (on the poster's thread) whenever a change is posted: the grid wakes its loop.
    package func onChange(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.onChange = body } }
}
