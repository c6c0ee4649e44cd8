import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// A wait before the grid can start (a remote gallery's first answer) that says what it waits
/// for and can be stopped: after a third of a second "connecting to HOST...", then each second
/// "waiting for HOST, N s", on the terminal; `q`, Esc or Ctrl-C stop it. Without a terminal
/// (`--print` in a previewer) one line on stderr says it once a second has gone by.
package enum StartWait {
    /// What stopped a wait: a key (status 0, as `q` in the grid) or a signal (128 + its number).
    package struct Stopped: Error {
        package let status: Int32
    }

    /// How long a wait goes unsaid, in ms: a server that answers at once shows nothing.
    static let quietMilliseconds = 300

    /// `body`'s value, run on a thread of its own while this one shows the wait and reads keys
    /// (`keys`: the terminal's, in raw mode for the length of the wait).
    package static func run<T: Sendable>(for place: String, keys: Bool, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let mailbox = Mailbox()
        let result = Locked<Result<T, Error>?>(nil)
        WorkerThreads.start {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            mailbox.post(.tileReady)
        }
        // A server that answers at once: nothing said, nothing changed on the terminal.
        mailbox.wait(milliseconds: Int32(quietMilliseconds))
        if let done = result.withLock({ $0 }) { return try done.get() }

        let readsKeys = keys && TTY.isTerminal(0)
        let signals = SignalSources([SignalSources.interrupt, SignalSources.terminate, SignalSources.hangUp], label: "photogrid.wait") {
            mailbox.post(.quit(signal: $0))
        }
        defer { signals.cancel() }
        let line = Line(place: place)
        defer { line.finish() }
        let started = SystemClock().now() - quietMilliseconds
        let stop: Int32? = readsKeys ? TTY.withRawInput(0) { watch(mailbox, result: result, line: line, started: started, keys: true) }
                                     : watch(mailbox, result: result, line: line, started: started, keys: false)
        if let stop { throw Stopped(status: stop) }
        return try result.withLock { $0 }!.get()
    }

    /// Waits for the result, a stopping key or a signal, saying the wait each second; the exit
    /// status when stopped, nil when the result came.
    private static func watch<T>(_ mailbox: Mailbox, result: Locked<Result<T, Error>?>, line: Line, started: Int, keys: Bool) -> Int32? {
        var decoder = KeyDecoder(), keys = keys
        while true {
            let elapsed = SystemClock().now() - started
            line.show(seconds: elapsed / 1000)
            mailbox.wait(milliseconds: Int32(1000 - elapsed % 1000), orInputOn: keys ? 0 : nil)
            for event in mailbox.drain() {
                if case .quit(let signal) = event { return 128 + signal }
            }
            if result.withLock({ $0 }) != nil { return nil }
            guard keys else { continue }
            guard let bytes = TTY.read(0, waitingUpTo: 0) else { keys = false; continue }
            let now = SystemClock().now()
            let typed = decoder.feed(bytes, now: now) + decoder.expire(now: now + KeyDecoder.sequenceDelay)
            if typed.contains(where: { [.character("q"), .character("Q"), .escape, .control("c")].contains($0) }) { return 0 }
        }
    }

    /// The line that says the wait: in place on a terminal's stderr, once elsewhere.
    private final class Line {
        let place: String
        let terminal = TTY.isTerminal(2)
        var said = false

        init(place: String) { self.place = TerminalText.sanitize(place) }

        func show(seconds: Int) {
            if terminal {
                let text = seconds == 0 ? "connecting to \(place)..." : "waiting for \(place), \(seconds) s"
                write("\r\u{1B}[K" + "photogrid: \(text) (q stops)")
                said = true
            } else if seconds >= 1 && !said {
                write("photogrid: waiting for \(place)...\n")
                said = true
            }
        }

        func finish() { if terminal && said { write("\r\u{1B}[K") } }

        private func write(_ text: String) { _ = try? TTY.writeAll(Array(text.utf8), to: 2) }
    }
}
