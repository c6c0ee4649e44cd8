/// Closures run one after another, in the order given, on a thread of its own: for work that
/// must go on whatever the shared worker threads are doing. libdispatch's queues run on its
/// global pool, which Swift's concurrency runs on too, a thread a core: when every one of them
/// waits (a test waiting synchronously for a fetch, say), a queued closure that the wait
/// depends on never runs. The thread ends once the queue is gone and its closures are run.
package final class SerialThread: Sendable {
    private final class Jobs: @unchecked Sendable {
        let condition = Condition()
        /// Guarded by `condition`: each closure, and what to do once it is let go.
        var waiting: [(work: @Sendable () -> Void, then: (@Sendable () -> Void)?)] = []
        var ended = false
    }

    private let jobs = Jobs()

    package init() {
        let jobs = self.jobs
        WorkerThreads.start {
            while true {
                jobs.condition.lock()
                while jobs.waiting.isEmpty && !jobs.ended { jobs.condition.wait() }
                if jobs.waiting.isEmpty {
                    jobs.condition.unlock()
                    return
                }
                var next = Optional(jobs.waiting.removeFirst())
                jobs.condition.unlock()
                next!.work()
                // `sync`'s caller hears only once its closure is let go (it may not outlive the call).
                let then = next!.then
                next = nil
                then?()
            }
        }
    }

    deinit {
        jobs.condition.lock()
        jobs.ended = true
        jobs.condition.broadcast()
        jobs.condition.unlock()
    }

    /// Runs `body` after what is queued; returns at once.
    package func async(_ body: @escaping @Sendable () -> Void) {
        enqueue(body, then: nil)
    }

    private func enqueue(_ body: @escaping @Sendable () -> Void, then: (@Sendable () -> Void)?) {
        jobs.condition.lock()
        jobs.waiting.append((body, then))
        jobs.condition.broadcast()
        jobs.condition.unlock()
    }

    /// Runs `body` after what is queued and returns its result, as `DispatchQueue.sync` does:
    /// `body` runs while the caller waits, so it may use what the caller holds. Never from a
    /// closure of this queue (it would wait for itself).
    package func sync<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            // Handed to the thread and back while this one waits: never used by two at once.
            nonisolated(unsafe) let body = body
            nonisolated(unsafe) var result: T?
            let done = Pending<Bool>()
            enqueue({ result = body() }, then: { done.fulfil(true) })
            _ = done.wait()
            return result!
        }
    }
}
