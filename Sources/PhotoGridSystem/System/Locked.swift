import Glibc

/// A value behind a pthread mutex: what every lock in photogrid is. Not the standard library's
/// `Mutex`: on Linux that locks with atomics and futex calls ThreadSanitizer cannot see, so it
/// reported races inside correctly locked code (scripts/sanitize; docs/reliability.md), and the
/// suite could not be checked for real ones. pthread_mutex_lock is what TSan intercepts.
///
/// Sendable only when its value is: a lock does not make a class shared with another thread safe
/// to use there. A failed lock or unlock (a mutex corrupted, or unlocked by a thread that does not
/// hold it) stops the program rather than run on unlocked.
package final class Locked<Value> {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock: \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "pthread_mutex_unlock: \(unlocked)")
        }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
