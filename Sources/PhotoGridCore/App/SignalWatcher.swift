import Dispatch
import Glibc

/// Turns signals into mailbox events, so that the event loop, and only it, restores the terminal.
final class SignalWatcher {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "photogrid.signals")

    init(mailbox: Mailbox) {
        let events: [(Int32, Mailbox.Event)] = [
            (SIGWINCH, .resize), (SIGCONT, .resume),
            (SIGINT, .quit(signal: SIGINT)), (SIGTERM, .quit(signal: SIGTERM)), (SIGHUP, .quit(signal: SIGHUP)),
        ]
        for (number, event) in events {
            // Ignored first, so that neither the default action nor ncurses' own handler runs.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { mailbox.post(event) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
