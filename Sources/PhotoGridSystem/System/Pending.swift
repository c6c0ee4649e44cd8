/// A value that another thread will give, once: `fulfil` gives it, `wait` waits for it. For
/// what cannot go on without an answer (a gallery's first document before the grid starts);
/// threads that can do other work meanwhile take a callback instead.
package final class Pending<Value: Sendable>: @unchecked Sendable {
    private let condition = Condition()
    private var value: Value?

    package init() {}

    /// Gives the value; later calls are ignored.
    package func fulfil(_ given: Value) {
        condition.lock()
        if value == nil { value = given }
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once given.
    package func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }

    /// The value if given within `milliseconds`, else nil.
    package func wait(milliseconds: Int) -> Value? {
        let deadline = SystemClock().now() + milliseconds
        condition.lock()
        defer { condition.unlock() }
        while value == nil {
            let left = deadline - SystemClock().now()
            guard left > 0 else { break }
            _ = condition.wait(milliseconds: left)
        }
        return value
    }
}

/// A hold on work under way for someone who may stop waiting (a load, a download): `cancel`
/// lets it go, and its answer may still come if it was already on its way.
package final class Ticket: Sendable {
    private let onCancel: @Sendable () -> Void
    package init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    package func cancel() { onCancel() }
}
