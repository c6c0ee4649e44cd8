import Glibc
import PhotoGridCanvas
import PhotoGridCore
import PhotoGridMetadata
import PhotoGridSystem

/// A program in a pseudo-terminal that answers photogrid's probe like a terminal of our choosing
/// (a sixel xterm, or a terminal with no graphics) and reads everything it writes as fast as it
/// comes, as a real terminal would but without drawing: the memory and CPU benchmarks and tests
/// run photogrid in it, at sizes and key rates that tmux and xterm cannot give.
package final class PtyTerminal: @unchecked Sendable {
    package struct Kind: Sendable {
        /// What it says to DA1, XTSMGRAPHICS and the pixel queries.
        let answers: String

        /// xterm -ti vt340 with 10x20 cells on `columns` x `rows`: sixel, 256 registers, and a
        /// graphics limit as large as the window.
        package static func sixelXterm(columns: Int, rows: Int) -> Kind {
            Kind(answers: "\u{1B}[?1;0;256S\u{1B}[?2;0;\(columns * 10);\(rows * 20)S\u{1B}[6;20;10t"
                 + "\u{1B}[4;\(rows * 20);\(columns * 10)t\u{1B}[?80;2$y\u{1B}[?1070;1$y\u{1B}[?63;1;2;4;6;9;15;22c")
        }

        /// A terminal with colour but no graphics (as tmux answers).
        package static let text = Kind(answers: "\u{1B}[?62;22c")

        /// kitty with 10x20 cells: OK to the graphics query and to the picture sent after it, no sixel.
        package static let kitty = Kind(answers: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c")

        /// The same saying it read the probe's file, as a kitty on the same machine does: pictures
        /// then go as files (which nothing here reads; photogrid removes them when it quits).
        package static let kittyFiles = Kind(answers: "\u{1B}_Gi=32;OK\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\"
                                             + "\u{1B}[6;20;10t\u{1B}[?62;c")

        /// A kitty on this machine: as `kittyFiles`, and it reads each picture handed to it as a
        /// file (`t=t`) and deletes it, as kitty does, before it answers a DA1 sent after it.
        package static let kittyReadingFiles: Kind = {
            var kind = kittyFiles
            kind.readsFiles = true
            return kind
        }()
        var readsFiles = false

        /// A terminal that answers the kitty graphics query and then ignores a picture sent to
        /// it, with sixel: photogrid must not take it for kitty.
        package static let kittyClaimingSixel = Kind(answers: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?1;0;256S\u{1B}[6;20;10t\u{1B}[?63;4c")

        /// Each query answered as it comes, as xterm with sixel would answer it, for the peers
        /// (timg, chafa), which ask other things than photogrid and wait for the answers.
        var answersEach = false

        /// xterm -ti vt340 answering every query a peer sends.
        package static func answeringXterm(columns: Int, rows: Int, kitty: Bool) -> Kind {
            var kind = Kind(answers: "")
            kind.answersEach = true
            kind.size = (columns, rows)
            kind.kitty = kitty
            return kind
        }
        var size = (0, 0)
        var kitty = false

        /// The answer to each query a peer may send (DA1 in both forms, DSR, XTVERSION, the
        /// colours, the window and cell sizes, kitty's graphics query).
        func replies() -> [([UInt8], [UInt8])] {
            let (columns, rows) = size
            let da1 = kitty ? "\u{1B}[?62;22c" : "\u{1B}[?63;1;2;4;6;9;15;22c"
            var list: [(String, String)] = [
                ("\u{1B}[c", da1), ("\u{1B}[0c", da1), ("\u{1B}[5n", "\u{1B}[0n"),
                ("\u{1B}[>q", kitty ? "\u{1B}P>|kitty(0.32.2)\u{1B}\\" : "\u{1B}P>|XTerm(379)\u{1B}\\"),
                ("\u{1B}]10;?", "\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\"), ("\u{1B}]11;?", "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\"),
                ("\u{1B}[14t", "\u{1B}[4;\(rows * 20);\(columns * 10)t"), ("\u{1B}[16t", "\u{1B}[6;20;10t"),
                ("\u{1B}[18t", "\u{1B}[8;\(rows);\(columns)t"), ("\u{1B}[?1;1;0S", "\u{1B}[?1;0;256S"),
            ]
            if kitty { list.append(("\u{1B}_Gi=", "\u{1B}_Gi=31;OK\u{1B}\\")) }
            return list.map { (Array($0.0.utf8), Array($0.1.utf8)) }
        }
    }

    package let pid: pid_t
    private let master: Int32
    private let rate: Int?
    private let state = Locked(State())
    /// Signalled whenever the program writes.
    private let output = Waiter()

    private struct State {
        var bytes = 0
        var captured: [UInt8] = []
        var arrivals: [(seconds: Double, bytes: Int)] = []
        var capturing = false
        var lastOutput = SystemClock().seconds()
        var head: [UInt8] = []
        var answered = false
        var closed = false
        /// Pictures read from files (`kittyReadingFiles`), and what is held of a command cut by a read.
        var filesRead = 0
        var command: [UInt8] = []
    }

    /// Pictures a `kittyReadingFiles` terminal has read from files so far.
    package var filesRead: Int { state.withLock { $0.filesRead } }

    /// Starts `command` on a terminal of `columns` x `rows` cells of 10x20 pixels; with `capture`,
    /// keeps everything it writes from the first byte (`takeCaptured()`).
    /// With `bytesPerSecond`, the terminal reads no faster than that, as one at the end of a slow
    /// link does (SSH into a home server, a VPN): what the program writes waits in the pty.
    package init(_ command: [String], columns: Int, rows: Int, kind: Kind, environment: [String: String], capture: Bool = false,
                 bytesPerSecond: Int? = nil) throws {
        state.withLock { $0.capturing = capture }
        rate = bytesPerSecond
        // posix_openpt and friends are hidden from Swift's Glibc: the same through /dev/ptmx's ioctls
        // (TIOCSPTLCK to unlock the pair, TIOCGPTN for its number).
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard fd >= 0, ioctl(fd, 0x4004_5431, &unlock) == 0, ioctl(fd, 0x8004_5430, &number) == 0 else {
            throw Subprocess.Failure.spawn(errno)
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(columns * 10), ws_ypixel: UInt16(rows * 20))
        _ = ioctl(fd, UInt(TIOCSWINSZ), &size)
        let slave = name
        master = fd
        // A session of its own whose controlling terminal is the pty (POSIX_SPAWN_SETSID, 0x80 in
        // glibc, is done before the file actions, so opening the pty makes it the controller).
        pid = try Subprocess.spawn(command, environment: environment, flags: 0x80) { actions in
            posix_spawn_file_actions_addclose(&actions, 0)
            posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let answers = Array(kind.answers.utf8)
        let each = kind.answersEach ? kind.replies() : kind.readsFiles ? [(PtyTerminal.da1, Array("\u{1B}[?62;c".utf8))] : []
        let readsFiles = kind.readsFiles
        WorkerThreads.start { [self] in read(answering: answers, each: each, readsFiles: readsFiles) }
    }

    deinit { close(master) }

    /// When each read of what the program wrote while capturing came, and its bytes, since the
    /// last call.
    package func takeArrivals() -> [(seconds: Double, bytes: Int)] { state.withLock { s in defer { s.arrivals = [] }; return s.arrivals } }

    /// Keeps what the program writes from now on, for `takeCaptured()`.
    package func startCapture() { state.withLock { $0.capturing = true; $0.captured = [] } }

    /// What the program wrote since `startCapture()` or the last call; capturing goes on.
    package func takeCaptured() -> [UInt8] {
        state.withLock { s in defer { s.captured = [] }; return s.captured }
    }

    /// Bytes the program has written so far.
    package var bytesWritten: Int { state.withLock { $0.bytes } }
    /// Seconds since the program last wrote anything.
    package var quietFor: Double { SystemClock().seconds() - state.withLock { $0.lastOutput } }

    /// Types `text` (escape sequences included).
    package func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until the program has written nothing for `quiet` seconds, at most `limit` seconds.
    @discardableResult
    package func waitForQuiet(_ quiet: Double, limit: Double) -> Bool {
        output.waitForQuiet(quiet, limit: limit)
    }

    /// Waits until what has been captured since the last take satisfies `done`, at most
    /// `seconds`; whether it did. Asked again each time the program writes.
    package func waitForCaptured(seconds: Double, until done: ([UInt8]) -> Bool) -> Bool {
        output.wait(seconds: seconds) { state.withLock { done($0.captured) } }
    }

    /// Waits until the program has written more than `count` bytes in all, at most `seconds`.
    package func waitForBytes(beyond count: Int, seconds: Double) -> Bool {
        output.wait(seconds: seconds) { bytesWritten > count }
    }

    /// Sends `q`, then SIGTERM if it has not gone within `seconds`; reaps it.
    package func stop(seconds: Double = 5) {
        send("q")
        let deadline = SystemClock().seconds() + seconds
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if SystemClock().seconds() > deadline { kill(pid, SIGKILL) }
            usleep(20_000)
        }
        state.withLock { $0.closed = true }
    }

    /// Drains the pty; answers the probe (which ends with DA1) once, when its DA1 arrives.
    private func read(answering answers: [UInt8], each: [([UInt8], [UInt8])] = [], readsFiles: Bool = false) {
        var tail: [UInt8] = []
        // Read a little at a time at a limited rate, so that the pace is even.
        var buffer = [UInt8](repeating: 0, count: rate == nil ? 1 << 16 : 4096)
        // When the link is free again: the last bytes read have taken their time through it.
        var linkFree = SystemClock().seconds()
        while true {
            if rate != nil {
                let wait = linkFree - SystemClock().seconds()
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if state.withLock({ $0.closed }) { return }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return
            }
            defer { output.signal() }
            if let rate {
                // A link kept busy runs on from when it was free, not from when this read came:
                // each sleep above wakes a little late, and counting from the wake-up lost that
                // every 4 KB (the "20 Mbit/s" link carried 2.14-2.2 MB a second, not 2.5). One
                // that sat idle for longer (nothing was written) starts again from now.
                let now = SystemClock().seconds()
                linkFree = (now - linkFree > 0.005 ? now : linkFree) + Double(count) / Double(rate)
            }
            let reply: Bool = state.withLock { s in
                s.bytes += count
                s.lastOutput = SystemClock().seconds()
                if s.capturing { s.captured += buffer[0..<count]; s.arrivals.append((SystemClock().seconds(), count)) }
                guard !s.answered, !answers.isEmpty else { return false }
                // Only the new bytes and the two before them are looked at: a program that never
                // asks DA1 (a tmux client) would otherwise have every read scan all it wrote.
                let asked = PtyTerminal.startsAnEscape(of: [PtyTerminal.da1], tail: s.head, read: buffer, count: count).contains(0)
                s.head = PtyTerminal.tail(s.head, buffer, count)
                guard asked else { return false }
                s.answered = true
                return true
            }
            // Files first: a terminal answers in order, so a DA1 after a picture is answered once it is read.
            if readsFiles { state.withLock { $0.filesRead += PtyTerminal.readFiles(buffer[0..<count], held: &$0.command) } }
            if reply && !answers.isEmpty { _ = answers.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
            // The first DA1 is the probe's, answered with `answers`.
            if !each.isEmpty && (!readsFiles || !reply) {
                // The new bytes with the last few before them, so that a query cut between two
                // reads is seen; each found is answered once.
                for index in PtyTerminal.startsAnEscape(of: each.map(\.0), tail: tail, read: buffer, count: count).sorted() {
                    _ = each[index].1.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                }
                tail = PtyTerminal.tail(tail, buffer, count)
            }
        }
    }

    private static let da1: [UInt8] = [0x1B, 0x5B, 0x63]

    /// kitty's part of a terminal on this machine: each kitty command in `bytes` (after what
    /// `held` kept of one cut by the last read) that hands over a picture as a file is read and
    /// deletes the file, as kitty does with a name that says "tty-graphics-protocol". How many.
    static func readFiles(_ bytes: ArraySlice<UInt8>, held: inout [UInt8]) -> Int {
        let text = held + bytes
        // The last command, if the read cut it, waits for the next read (a picture's chunk
        // through the pty is dropped: it names no file).
        let opened = (0..<max(0, text.count - 2)).last { text[$0] == 0x1B && text[$0 + 1] == 0x5F && text[$0 + 2] == 0x47 }
        let cut = opened.flatMap { open in
            (open..<max(open, text.count - 1)).contains { text[$0] == 0x1B && text[$0 + 1] == 0x5C } ? nil : open
        }
        held = cut.map { text.count - $0 < 4096 ? Array(text[$0...]) : [] } ?? []
        var read = 0
        for command in TerminalOutput.kittyCommands(Array(text[..<(cut ?? text.count)])) {
            let keys = command.keys.split(separator: ",")
            guard keys.contains("t=t"), !keys.contains("a=q"), let name = Base64.decode(command.payload),
                  String(decoding: name, as: UTF8.self).contains("tty-graphics-protocol") else { continue }
            let path = RawPath(name)
            if (try? FileReader.read(path)) != nil && path.remove() { read += 1 }
        }
        return read
    }

    /// The last 8 bytes of `tail` followed by the first `count` of `read`: enough to hold the
    /// start of any query cut by the end of a read.
    package static func tail(_ tail: [UInt8], _ read: [UInt8], _ count: Int) -> [UInt8] {
        count >= 8 ? Array(read[(count - 8)..<count]) : Array((tail + read[0..<count]).suffix(8))
    }

    /// Which of `queries` (each starting with ESC) occur in `tail` followed by the first `count`
    /// bytes of `read`. Only the escapes are looked at, found with memchr: the reader shares the
    /// machine's two cores with the program it measures, and comparing every byte with every
    /// query cost it a tenth of a peers round's CPU (perf, `photogrid-bench peers`).
    package static func startsAnEscape(of queries: [[UInt8]], tail: [UInt8], read: [UInt8], count: Int) -> Set<Int> {
        var found = Set<Int>()
        // Across the join: the tail and as much of the read as the longest query needs.
        let longest = queries.map(\.count).max() ?? 0
        let joined = tail + read[0..<min(count, longest)]
        // A query wholly in the tail was answered with the read before.
        joined.withUnsafeBytes { matches(queries, in: $0, startsBefore: tail.count, endsAfter: tail.count, into: &found) }
        read.withUnsafeBytes { matches(queries, in: UnsafeRawBufferPointer(rebasing: $0[0..<count]), startsBefore: count, into: &found) }
        return found
    }

    /// Adds to `found` the queries that start at an escape before `limit` in `bytes` and end after
    /// `end` bytes.
    private static func matches(_ queries: [[UInt8]], in bytes: UnsafeRawBufferPointer, startsBefore limit: Int,
                                endsAfter end: Int = 0, into found: inout Set<Int>) {
        guard let base = bytes.baseAddress else { return }
        var at = 0
        while at < limit, let hit = memchr(base + at, 0x1B, limit - at) {
            let start = base.distance(to: UnsafeRawPointer(hit))
            for (index, query) in queries.enumerated() where start + query.count <= bytes.count && start + query.count > end {
                if memcmp(base + start, query, query.count) == 0 { found.insert(index) }
            }
            at = start + 1
        }
    }


    /// The program's peak resident memory (VmHWM) and now (VmRSS), in KB, and its CPU time in
    /// seconds (user and system), from /proc.
    package static func usage(_ pid: pid_t) -> (peakKB: Int, residentKB: Int, cpuSeconds: Double) {
        func field(_ text: String, _ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        let status = (try? FileReader.readText("/proc/\(pid)/status")) ?? ""
        var cpu = 0.0
        if let stat = try? FileReader.readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") {
            // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 12 { cpu = Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK))) }
        }
        return (field(status, "VmHWM:"), field(status, "VmRSS:"), cpu)
    }
}

extension FileReader {
    /// A small text file (/proc), read as UTF-8.
    package static func readText(_ path: String) throws -> String {
        // /proc files report a size of 0: read by blocks.
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw DecodeError.unreadable(path) }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
