/// A table of keyed jobs, each waiting or running: one job a key, however often and by however
/// many it is asked for. Whoever asks first makes the job; later askers join it (`join`'s
/// `joining` says what joining changes: one more asker, a higher priority); a job ends with
/// `finish`, and the next to ask starts a new one. A running job is never dropped by the table's
/// other changes: only its runner finishes it or puts it back.
///
/// The rules are the same for all three users, the locking is not: the table is a value that
/// its owner guards. `SharedJobs` keeps one under a lock of its own, for threads that wait on
/// each other's jobs (the HTTP fetcher, the server's renditions); the pipeline keeps two under
/// the condition lock that also guards its caches, and schedules from them (`TilePipeline`).
package struct KeyedJobs<Key: Hashable, Job> {
    private var entries: [Key: (job: Job, running: Bool)] = [:]

    package init() {}

    package subscript(key: Key) -> Job? { entries[key]?.job }

    package func isRunning(_ key: Key) -> Bool { entries[key]?.running ?? false }

    package var isEmpty: Bool { entries.isEmpty }

    package var keys: Dictionary<Key, (job: Job, running: Bool)>.Keys { entries.keys }

    /// Every job, waiting or running.
    package var all: LazyMapSequence<[Key: (job: Job, running: Bool)], (key: Key, job: Job, running: Bool)> {
        entries.lazy.map { ($0.key, $0.value.job, $0.value.running) }
    }

    /// The jobs not started yet: what a scheduler picks from.
    package var waiting: LazyMapSequence<LazyFilterSequence<[Key: (job: Job, running: Bool)]>, (key: Key, job: Job)> {
        entries.lazy.filter { !$0.value.running }.map { ($0.key, $0.value.job) }
    }

    /// Joins the job for `key` (`joining` changes it in place), or, if there is none, adds the
    /// one `start` makes, waiting. True when it was made now: the caller leads it.
    @discardableResult
    package mutating func join(_ key: Key, start: () -> Job, joining: (inout Job) -> Void = { _ in }) -> Bool {
        if entries[key] != nil {
            joining(&entries[key]!.job)
            return false
        }
        entries[key] = (start(), false)
        return true
    }

    /// Changes the job for `key` in place, if there is one.
    package mutating func update(_ key: Key, _ change: (inout Job) -> Void) {
        if entries[key] != nil { change(&entries[key]!.job) }
    }

    /// The job for `key` is running from now on.
    package mutating func take(_ key: Key) { entries[key]?.running = true }

    /// A running job could not go on (what it needed went meanwhile): it waits again.
    package mutating func putBack(_ key: Key) { entries[key]?.running = false }

    /// The job is done, or given up: later askers start a new one.
    @discardableResult
    package mutating func finish(_ key: Key) -> Job? { entries.removeValue(forKey: key)?.job }

    /// Drops the waiting jobs that `drop` picks; running ones stay.
    package mutating func dropWaiting(where drop: (Key, Job) -> Bool) {
        entries = entries.filter { $0.value.running || !drop($0.key, $0.value.job) }
    }

    /// What is wanted now, replacing what was: the waiting jobs become `jobs`. A running job
    /// stays running, with its new value if `jobs` has its key, else changed by `leftRunning`.
    package mutating func replace(with jobs: [Key: Job], leftRunning: (inout Job) -> Void = { _ in }) {
        var next = jobs.mapValues { (job: $0, running: false) }
        for (key, entry) in entries where entry.running {
            if next[key] != nil {
                next[key]!.running = true
            } else {
                var job = entry.job
                leftRunning(&job)
                next[key] = (job, true)
            }
        }
        entries = next
    }
}

extension KeyedJobs: Sendable where Key: Sendable, Job: Sendable {}
