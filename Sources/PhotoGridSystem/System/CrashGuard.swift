import CGlibc
import Glibc

/// Gives the terminal back when photogrid dies of a signal: a Swift runtime trap (SIGILL or
/// SIGTRAP), a memory error (SIGSEGV, SIGBUS), `abort()` (SIGABRT) or SIGFPE. The handler does
/// only what is safe in a signal handler: it writes bytes prepared at start-up (leave the alternate
/// screen, show the cursor, reset colours and the private modes photogrid set), restores the
/// terminal modes saved before ncurses started, then puts back the handler that was there before
/// (the Swift runtime's backtracer, or the default) and raises the signal again.
package enum CrashGuard {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    // Set up before the handler is installed, then only read by it. Raw memory, not Swift
    // arrays: the handler must not reach into the Swift runtime (generic code in a debug build
    // does), which may be in any state when a signal arrives.
    nonisolated(unsafe) private static var reset: UnsafeMutablePointer<UInt8>? = nil
    nonisolated(unsafe) private static var resetCount = 0
    nonisolated(unsafe) private static var modes: UnsafeMutablePointer<termios>? = nil
    nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction>? = nil
    /// Set by the handler before it gives the terminal back, and the writes to the terminal under
    /// way then: a frame another thread is writing must not go on over the shell's screen once the
    /// alternate screen is left (`TTY.writeAll` checks the first and counts the second).
    nonisolated(unsafe) static var dying: UnsafeMutablePointer<Int32>? = nil
    nonisolated(unsafe) static var writing: UnsafeMutablePointer<Int32>? = nil

    /// The terminal's modes as they are now, before ncurses changes them.
    package static func saveModes() {
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        saved.initialize(to: termios())
        modes = tcgetattr(0, saved) == 0 ? saved : nil
    }

    package static func install(resetSequence: [UInt8]) {
        let flags = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        flags.initialize(repeating: 0, count: 2)
        (dying, writing) = (flags, flags + 1)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, resetSequence.count))
        resetSequence.withUnsafeBufferPointer { buffer.initialize(from: $0.baseAddress!, count: $0.count) }
        reset = buffer
        resetCount = resetSequence.count
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        previous = actions
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in CrashGuard.handle(signal) }
            sigemptyset(&action.sa_mask)
            // Not blocked while handled: raising it again below must reach the next handler now.
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigaction(number, &action, actions + Int(number))
        }
    }

    /// After a normal exit: the handlers that were there before.
    package static func uninstall() {
        guard let previous else { return }
        for number in signals { sigaction(number, previous + Int(number), nil) }
    }

    private static func handle(_ signal: Int32) {
        // No write starts from here on; one under way on another thread is let finish, for at
        // most 50 ms (this may be the thread that was writing).
        if let dying, let writing {
            pg_flag_set(dying)
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000), waited = 0
            // A plain loop: a range's iterator is generic code, which a debug build runs through the runtime.
            while waited < 50 && pg_flag_get(writing) != 0 {
                nanosleep(&pause, nil)
                waited += 1
            }
        }
        if let reset { _ = write(1, reset, resetCount) }
        if let modes { tcsetattr(0, TCSANOW, modes) }
        // The handler before ours (the Swift runtime's backtracer prints where it crashed).
        if let previous, signal > 0, signal < 65 { sigaction(signal, previous + Int(signal), nil) }
        raise(signal)
        // Still here (a signal sent with kill, which returning would not repeat): die of it.
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        _exit(128 + signal)
    }
}
