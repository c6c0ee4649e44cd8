import Glibc

/// A mutex with a condition variable: the one lock of the pipeline, and what its idle workers
/// sleep on. pthreads directly, so that the library needs no Foundation (about 3 ms of start-up
/// in every `photogrid --print`, measured).
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// With the lock held: sleeps until `broadcast`, lock released meanwhile.
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts detached threads running a closure: the pipeline's workers.
package enum WorkerThreads {
    /// Cores online: how many workers decode at once.
    package static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    package static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // libjpeg and the resampler need little stack; 1 MB is ample and keeps memory down.
        pthread_attr_setstacksize(&attributes, 1 << 20)
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
    }
}
