import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Turns signals into mailbox events, so that the event loop, and only it, restores the terminal.
final class SignalWatcher {
    private let sources: SignalSources

    init(mailbox: Mailbox) {
        typealias S = SignalSources
        let events: [Int32: Mailbox.Event] = [
            S.windowChanged: .resize, S.resumed: .resume,
            S.interrupt: .quit(signal: S.interrupt), S.terminate: .quit(signal: S.terminate), S.hangUp: .quit(signal: S.hangUp),
        ]
        sources = SignalSources(Array(events.keys), label: "photogrid.signals") { number in
            if let event = events[number] { mailbox.post(event) }
        }
    }
}
