import CGlibc
import Glibc

/// Set when nothing wants a running decode any more (the zoom view stepped past its photo, the
/// grid jumped away): the decoder stops at its next row of blocks instead of finishing work
/// that would be thrown away while the photo the user is looking at waits for a worker.
///
/// The pipeline makes one per tier fetch and makes it the worker thread's `current` while the
/// decode runs; the decoders that can stop (libjpeg's, through its progress hook) read it.
package final class CancelFlag: @unchecked Sendable {
    /// Read and written atomically, by the JPEG shim too (`JPEG.DecodeOptions.cancel`).
    package let pointer: UnsafeMutablePointer<Int32>

    package init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }

    deinit { pointer.deallocate() }

    package func cancel() { pg_flag_set(pointer) }

    package var isCancelled: Bool { pg_flag_get(pointer) != 0 }

    /// The flag of the fetch running on this thread, if any.
    package static var current: CancelFlag? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<CancelFlag>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with `flag` as this thread's `current`.
    package static func with<T>(_ flag: CancelFlag, _ body: () -> T) -> T {
        pthread_setspecific(key, Unmanaged.passUnretained(flag).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return withExtendedLifetime(flag) { body() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
