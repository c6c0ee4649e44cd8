import PhotoGridSystem

/// The keyboard (and the mouse) as keys: what standard input has, read without waiting and
/// decoded whole (`KeyDecoder`). The event loop asks for keys after every wake-up and sleeps no
/// longer than `due` while a sequence is half read.
package final class KeyReader {
    private var decoder = KeyDecoder()
    private var queue: [Key] = []
    private var next = 0
    private let input: Int32
    private let clock: any Clock
    /// Standard input ended (the terminal went away).
    package private(set) var ended = false

    /// What turns mouse reports on (presses and the wheel, SGR encoded where the terminal has it,
    /// else X10's) and off again.
    package static let mouseOn = Array("\u{1B}[?1000h\u{1B}[?1006h".utf8)
    package static let mouseOff = Array("\u{1B}[?1006l\u{1B}[?1000l".utf8)

    package init(input: Int32 = 0, clock: any Clock = SystemClock()) {
        self.input = input
        self.clock = clock
    }

    /// Mouse reports are asked for (`mouseOn` written): they become keys.
    package var mouse: Bool {
        get { decoder.mouse }
        set { decoder.mouse = newValue }
    }

    /// Bytes read elsewhere first (typed while the probe read the terminal's answers).
    package func unread(_ bytes: [UInt8]) {
        queue += decoder.feed(bytes, now: clock.now())
    }

    /// The next key, or nil when none is waiting now.
    package func read() -> Key? {
        while next >= queue.count {
            queue = []
            next = 0
            guard !ended else { return nil }
            guard let bytes = TTY.read(input, waitingUpTo: 0) else {
                ended = true
                queue = decoder.expire(now: Int.max)
                continue
            }
            if bytes.isEmpty {
                queue = decoder.expire(now: clock.now())
                if queue.isEmpty { return nil }
            } else {
                queue = decoder.feed(bytes, now: clock.now())
            }
        }
        defer { next += 1 }
        return queue[next]
    }

    /// When a half-read sequence is to be decided: the loop wakes then, though nothing comes.
    package var due: Int? { decoder.due }

    /// The terminal was lent to another program: whatever was half read is forgotten.
    package func reset() {
        decoder.reset()
        queue = []
        next = 0
    }
}
