/// "One job among everyone who asks", for threads that wait on each other: the first to ask for
/// a key starts its job and leads it; whoever asks for the same key before `finish` joins that
/// job instead of starting another. What a job is (a thread's flight with a semaphore, an event
/// loop's future) is the caller's `Job`; this is a `KeyedJobs` table under a lock of its own,
/// counting each job's askers. The HTTP fetcher and the server's renditions share their work
/// through it.
package final class SharedJobs<Key: Hashable & Sendable, Job: Sendable>: Sendable {
    private struct Asked: Sendable {
        let job: Job
        var askers: Int
    }

    private let table = Locked(KeyedJobs<Key, Asked>())

    package init() {}

    /// The job for `key`: the one under way (`leads` false), else the one `start` makes now,
    /// which the caller runs (`leads` true). `start` runs under the lock: it only makes the job.
    package func join(_ key: Key, start: () -> Job) -> (job: Job, leads: Bool) {
        table.withLock { table in
            let leads = table.join(key, start: { Asked(job: start(), askers: 1) }, joining: { $0.askers += 1 })
            if leads { table.take(key) }
            return (table[key]!.job, leads)
        }
    }

    /// Starts a job for `key` with no asker yet, unless one is under way: the job, or nil. For a
    /// leader that runs jobs ahead of their askers (a batch of downloads).
    package func start(_ key: Key, _ make: () -> Job) -> Job? {
        table.withLock { table in
            guard table.join(key, start: { Asked(job: make(), askers: 0) }) else { return nil }
            table.take(key)
            return table[key]!.job
        }
    }

    /// Whether a job for `key` is under way.
    package func isRunning(_ key: Key) -> Bool { table.withLock { $0.isRunning(key) } }

    /// The job is done: later askers start a new one (or find its result cached).
    package func finish(_ key: Key) { table.withLock { _ = $0.finish(key) } }

    /// Askers of the jobs under way, leaders included: what tests wait on.
    package var askers: Int { table.withLock { $0.all.reduce(0) { $0 + $1.job.askers } } }
}
