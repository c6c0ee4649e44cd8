import Glibc

/// A value behind a pthread mutex: what every lock in photogrid is. Not the standard library's
/// `Mutex`: on Linux that locks with atomics and futex calls ThreadSanitizer cannot see, so it
/// reported races inside correctly locked code (scripts/sanitize; docs/reliability.md), and the
/// suite could not be checked for real ones. pthread_mutex_lock is what TSan intercepts.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
