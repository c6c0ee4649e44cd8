import PhotoGridSystem

/// At most `width` pieces of heavy work at once (decoding and encoding renditions, reading the
/// manifest's details), on whichever connection's thread asks: one per core, so that a hundred
/// clients asking at once share the cores rather than crowd them, and the rest wait their turn.
final class WorkGate: @unchecked Sendable {
    private let condition = Condition()
    private var free: Int

    init(width: Int) { free = max(1, width) }

    func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        condition.lock()
        while free == 0 { condition.wait() }
        free -= 1
        condition.unlock()
        defer {
            condition.lock()
            free += 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
