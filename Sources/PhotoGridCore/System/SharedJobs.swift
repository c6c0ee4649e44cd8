/// "One job among everyone who asks", keyed: the first to ask for a key starts its job and
/// leads it; whoever asks for the same key before `finish` joins that job instead of starting
/// another. What a job is (a thread's flight with a semaphore, an event loop's future) is the
/// caller's `Job`; this keeps only the table, under its lock. The HTTP fetcher and the server's
/// renditions share their work through it.
package final class SharedJobs<Key: Hashable & Sendable, Job: Sendable>: Sendable {
    private let table = Locked<[Key: (job: Job, askers: Int)]>([:])

    package init() {}

    /// The job for `key`: the one under way (`leads` false), else the one `start` makes now,
    /// which the caller runs (`leads` true). `start` runs under the lock: it only makes the job.
    package func join(_ key: Key, start: () -> Job) -> (job: Job, leads: Bool) {
        table.withLock { table in
            if let entry = table[key] {
                table[key]!.askers = entry.askers + 1
                return (entry.job, false)
            }
            let job = start()
            table[key] = (job, 1)
            return (job, true)
        }
    }

    /// Starts a job for `key` with no asker yet, unless one is under way: the job, or nil. For a
    /// leader that runs jobs ahead of their askers (a batch of downloads).
    package func start(_ key: Key, _ make: () -> Job) -> Job? {
        table.withLock { table in
            guard table[key] == nil else { return nil }
            let job = make()
            table[key] = (job, 0)
            return job
        }
    }

    /// Whether a job for `key` is under way.
    package func isRunning(_ key: Key) -> Bool { table.withLock { $0[key] != nil } }

    /// The job is done: later askers start a new one (or find its result cached).
    package func finish(_ key: Key) { table.withLock { _ = $0.removeValue(forKey: key) } }

    /// Askers of the jobs under way, leaders included: what tests wait on.
    package var askers: Int { table.withLock { $0.values.reduce(0) { $0 + $1.askers } } }
}
