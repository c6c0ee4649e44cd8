import Glibc

/// A mutex with a condition variable: the one lock of the pipeline, and what its idle workers
/// sleep on. pthreads directly, so that the library needs no Foundation (about 3 ms of start-up
/// in every `photogrid --print`, measured). As `Locked`, a failed pthread call stops the program
/// rather than run on unlocked.
package final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        Condition.check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
        // Timed waits count on the monotonic clock: a change of the wall clock does not stretch them.
        var attributes = pthread_condattr_t()
        Condition.check(pthread_condattr_init(&attributes), "pthread_condattr_init")
        Condition.check(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
        Condition.check(pthread_cond_init(condition, &attributes), "pthread_cond_init")
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { Condition.check(pthread_mutex_lock(mutex), "pthread_mutex_lock") }
    package func unlock() { Condition.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
    /// With the lock held: sleeps until `broadcast`, lock released meanwhile.
    package func wait() { Condition.check(pthread_cond_wait(condition, mutex), "pthread_cond_wait") }
    package func broadcast() { Condition.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast") }
    /// As `wait`, for `milliseconds` at most: false when that time ran out.
    package func wait(milliseconds: Int) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + milliseconds % 1000 * 1_000_000
        deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        let result = pthread_cond_timedwait(condition, mutex, &deadline)
        if result == ETIMEDOUT { return false }
        Condition.check(result, "pthread_cond_timedwait")
        return true
    }

    private static func check(_ result: Int32, _ call: StaticString) {
        precondition(result == 0, "\(call): \(result)")
    }
}

/// Starts detached threads running a closure: the pipeline's workers.
package enum WorkerThreads {
    /// Cores online: how many workers decode at once.
    package static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// False when no thread could be started: `body` will not run. `stackBytes` is reserved, not
    /// used: pages are taken as the stack grows into them.
    @discardableResult
    package static func start(stackBytes: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // libjpeg and the resampler need little stack; 1 MB is ample and keeps memory down.
        pthread_attr_setstacksize(&attributes, stackBytes)
        let status = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        if status != 0 {
            // No thread: run nothing, but do not leak the closure.
            Unmanaged<Box>.fromOpaque(box).release()
        }
        return status == 0
    }
}

/// A thread that can be waited for: the memory watcher's, which must have ended before its owner
/// goes, so that no callback runs after.
package final class JoinableThread: Sendable {
    private let handle: Locked<pthread_t?>

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Nil when no thread could be started: the caller goes on without it.
    package init?(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, box) == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return nil
        }
        handle = Locked(thread)
    }

    /// `body(i)` for every `i` in `0..<count`, taken in order by up to `threads` threads of its
    /// own (each its next index as it finishes one); returns once all are done. On the caller's
    /// thread when none could be started. For blocking work (downloads, files) that should not
    /// wait in Dispatch's pool, which is as wide as the cores.
    package static func forEach(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Locked(0)
        let work: @Sendable () -> Void = {
            while true {
                let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                guard i < count else { return }
                body(i)
            }
        }
        let started = (0..<min(count, max(1, threads))).compactMap { _ in JoinableThread(work) }
        if started.isEmpty { work() }
        started.forEach { $0.join() }
    }

    /// Waits until the thread has ended; the second call and later return at once. Called on the
    /// thread itself, which cannot wait for its own end, it detaches the thread instead.
    package func join() {
        guard let thread = handle.withLock({ h -> pthread_t? in defer { h = nil }; return h }) else { return }
        if pthread_equal(thread, pthread_self()) != 0 { pthread_detach(thread) } else { pthread_join(thread, nil) }
    }
}
