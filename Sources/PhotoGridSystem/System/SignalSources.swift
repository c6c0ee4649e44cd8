import Dispatch
import Glibc

/// Signals as events: each one named is ignored (so that neither its default action nor
/// ncurses' own handler runs) and reported to `handler` on a queue of its own, whichever thread
/// it lands on, even threads started before (a mask and sigwait would miss those). `cancel`
/// stops watching and gives each signal back its default action; the object's end only stops
/// watching, so the signals stay ignored until the process exits (the grid's last steps, such
/// as writing `-o`'s paths, are not cut short by a late Ctrl-C).
package final class SignalSources {
    package static let interrupt = SIGINT, terminate = SIGTERM, hangUp = SIGHUP
    package static let windowChanged = SIGWINCH, resumed = SIGCONT

    private var sources: [(Int32, DispatchSourceSignal)] = []
    private let queue: DispatchQueue

    package init(_ numbers: [Int32], label: String, handler: @escaping @Sendable (Int32) -> Void) {
        queue = DispatchQueue(label: label)
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append((number, source))
        }
    }

    package func cancel() {
        for (number, source) in sources {
            source.cancel()
            signal(number, SIG_DFL)
        }
        sources = []
    }

    deinit { for (_, source) in sources { source.cancel() } }

    /// Runs `body` with SIGINT and SIGQUIT ignored, then puts back what was there: while a
    /// program photogrid waits for has the terminal, Ctrl-C is that program's.
    package static func ignoringInterrupts<T>(_ body: () -> T) -> T {
        var ignore = sigaction(), oldInt = sigaction(), oldQuit = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        return body()
    }
}
