import Dispatch
import Glibc
import Testing
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures
@testable import PhotoGridCanvas

@Suite struct TerminalRepliesTests {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func xtermAnswersDA1AndGraphicsButNotWindowSize() {
        // xterm -ti vt340: colour registers, geometry, two DECRPM, DA1 with 4 (sixel); no CSI t reply.
        let reply = "\u{1B}[?1;0;256S\u{1B}[?2;0;1200;800S\u{1B}[?80;2$y\u{1B}[?1070;1$y\u{1B}[?63;1;2;4;6;9;15;16;22;28;29c"
        let (replies, incomplete) = TerminalReplies.parse(bytes(reply))
        #expect(incomplete.isEmpty)
        #expect(replies.supportsSixel)
        #expect(replies.colorRegisters == 256)
        #expect(replies.graphicsSize! == (1200, 800))
        #expect(replies.cellSize == nil && replies.textAreaSize == nil)
        #expect(replies.privateModes == [80: 2, 1070: 1])
        #expect(replies.other.isEmpty)
    }

    @Test func mltermAnswersCellAndTextAreaSizes() {
        let reply = "\u{1B}[6;22;11t\u{1B}[4;880;1320t\u{1B}[?1;0;1024S\u{1B}[?64;1;2;4;6;7;15;18;21;22;29c"
        let (replies, _) = TerminalReplies.parse(bytes(reply))
        #expect(replies.cellSize! == (11, 22))
        #expect(replies.textAreaSize! == (1320, 880))
        #expect(replies.supportsSixel)
        #expect(replies.colorRegisters == 1024)
    }

    @Test func keysTypedDuringTheProbeAreKeptApart() {
        // The user pressed j, an arrow key and q while the replies came in.
        let reply = "j\u{1B}[?1;3;0S\u{1B}[Bq\u{1B}[?62;22c"
        let (replies, _) = TerminalReplies.parse(bytes(reply))
        #expect(replies.other == bytes("j\u{1B}[Bq"))
        #expect(replies.deviceAttributes == [62, 22])
        #expect(!replies.supportsSixel)
        #expect(replies.colorRegisters == nil)          // status 3: an error, not a count
    }

    @Test func aReplyCutInTwoIsCompletedByTheNextRead() {
        let whole = bytes("\u{1B}[6;20;10t\u{1B}[?62;4c")
        let (first, rest) = TerminalReplies.parse(Array(whole.prefix(7)))
        #expect(first.cellSize == nil && !rest.isEmpty)
        var replies = first
        let (second, none) = TerminalReplies.parse(rest + whole.dropFirst(7))
        replies.merge(second)
        #expect(none.isEmpty)
        #expect(replies.cellSize! == (10, 20) && replies.supportsSixel)
    }

    @Test func queryEndsWithDA1() {
        #expect(TerminalReplies.query.suffix(3) == [0x1B, UInt8(ascii: "["), UInt8(ascii: "c")])
    }
}

/// `--print`'s wait for the terminal after handing it files: DA1 asked, its answer awaited among
/// whatever else comes, and a terminal that answers junk without end is given up on in time.
@Suite struct CaughtUpTests {
    /// caughtUp reading the pipe `answer` is written to, asking on another; whether it came, and
    /// what it asked.
    func wait(feeding answer: [UInt8], timeout: Int) -> (came: Bool, asked: [UInt8]) {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { return (false, []) }
        defer { for fd in input + output { close(fd) } }
        _ = fcntl(input[1], F_SETFL, O_NONBLOCK)
        let stop = Locked(false), done = DispatchSemaphore(value: 0)
        let (fd, bytes) = (input[1], answer)
        _ = WorkerThreads.start {
            var at = 0
            // In pieces, as a terminal's answers come, until all is written or the wait is over.
            while at < bytes.count, !stop.withLock({ $0 }) {
                let n = bytes[at...].prefix(4096).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n > 0 { at += n } else { usleep(1000) }
            }
            done.signal()
        }
        let came = TerminalProbe.caughtUp(input: input[0], output: output[1], timeoutMilliseconds: timeout)
        stop.withLock { $0 = true }
        done.wait()
        var asked = [UInt8](repeating: 0, count: 16)
        let n = asked.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
        return (came, Array(asked.prefix(max(0, n))))
    }

    @Test func theAnswerToDA1EndsTheWait() {
        let run = wait(feeding: Array("\u{1B}_Gi=1;OK\u{1B}\\\u{1B}[?62;22c".utf8), timeout: 2000)
        #expect(run.came)
        #expect(run.asked == Array("\u{1B}[c".utf8))
    }

    @Test func endlessJunkIsGivenUpOnAtTheTimeout() {
        // A "reply" that never ends: a CSI whose parameters go on for 4 MB.
        let junk = Array("\u{1B}[".utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: 4 << 20)
        let started = SystemClock().seconds()
        let run = wait(feeding: junk, timeout: 300)
        #expect(!run.came)
        #expect(SystemClock().seconds() - started < 3, "took \(SystemClock().seconds() - started) s")
    }
}

@Suite struct CapabilitiesTests {
    let xterm = TerminalReplies.parse(Array("\u{1B}[?1;0;256S\u{1B}[?80;2$y\u{1B}[?1070;2$y\u{1B}[?63;1;2;4c".utf8)).replies

    @Test func sixelWhenDA1ListsFourAndCellsFromTIOCGWINSZ() {
        let window = TTY.WindowSize(columns: 120, rows: 40, pixelWidth: 1200, pixelHeight: 800)
        let caps = Capabilities.decide(replies: xterm, window: window, environment: [:], choice: .auto)
        #expect(caps.mode == .sixel(colors: 256))
        #expect(caps.cellWidth == 10 && caps.cellHeight == 20 && caps.cellSizeSource == "TIOCGWINSZ")
        // Private colour registers were off: turned on for the run and back off at exit.
        #expect(caps.enterSequence == Array("\u{1B}[?1070h".utf8))
        #expect(caps.exitSequence == Array("\u{1B}[?1070l".utf8))
    }

    @Test func cellSizeFallsBackInOrder() {
        let noPixels = TTY.WindowSize(columns: 100, rows: 50, pixelWidth: 0, pixelHeight: 0)
        let mlterm = TerminalReplies.parse(Array("\u{1B}[6;22;11t\u{1B}[4;880;1320t\u{1B}[?64;4c".utf8)).replies
        #expect(Capabilities.decide(replies: mlterm, window: noPixels, environment: [:], choice: .auto).cellSizeSource == "CSI 16 t")
        let areaOnly = TerminalReplies.parse(Array("\u{1B}[4;1000;900t\u{1B}[?64;4c".utf8)).replies
        let caps = Capabilities.decide(replies: areaOnly, window: noPixels, environment: [:], choice: .auto)
        #expect(caps.cellWidth == 9 && caps.cellHeight == 20 && caps.cellSizeSource == "CSI 14 t")
        let graphics = TerminalReplies.parse(Array("\u{1B}[?2;0;800;1000S\u{1B}[?64;4c".utf8)).replies
        #expect(Capabilities.decide(replies: graphics, window: noPixels, environment: [:], choice: .auto).cellSizeSource == "XTSMGRAPHICS")
        let nothing = Capabilities.decide(replies: TerminalReplies(), window: nil, environment: [:], choice: .auto)
        #expect(nothing.cellWidth == 10 && nothing.cellHeight == 20)
    }

    /// xterm with its default maxGraphicSize answers 1000x800 in a 1200x800 window and draws
    /// nothing wider: the limit reaches the screen's metrics, which cut pictures to it.
    @Test func theLargestSixelPictureComesFromXTSMGRAPHICS() {
        let window = TTY.WindowSize(columns: 120, rows: 40, pixelWidth: 1200, pixelHeight: 800)
        let limited = TerminalReplies.parse(Array("\u{1B}[?2;0;1000;800S\u{1B}[?63;1;2;4c".utf8)).replies
        let caps = Capabilities.decide(replies: limited, window: window, environment: [:], choice: .auto)
        #expect(caps.maxImageWidth == 1000 && caps.maxImageHeight == 800)
        // No answer, an answer smaller than a cell, or half-block mode: no limit.
        #expect(Capabilities.decide(replies: xterm, window: window, environment: [:], choice: .auto).maxImageWidth == 0)
        let tiny = TerminalReplies.parse(Array("\u{1B}[?2;0;0;0S\u{1B}[?63;1;2;4c".utf8)).replies
        #expect(Capabilities.decide(replies: tiny, window: window, environment: [:], choice: .auto).maxImageWidth == 0)
        #expect(Capabilities.decide(replies: limited, window: window, environment: [:], choice: .halfblock).maxImageWidth == 0)
    }

    @Test func halfBlocksWithoutSixelAndColourDepthFromCOLORTERM() {
        let tmux = TerminalReplies.parse(Array("\u{1B}[?1;2c".utf8)).replies
        #expect(Capabilities.decide(replies: tmux, window: nil, environment: ["COLORTERM": "truecolor"], choice: .auto).mode == .halfBlock(.trueColor))
        #expect(Capabilities.decide(replies: tmux, window: nil, environment: ["COLORTERM": "24bit"], choice: .auto).mode == .halfBlock(.trueColor))
        #expect(Capabilities.decide(replies: tmux, window: nil, environment: [:], choice: .auto).mode == .halfBlock(.palette256))
        #expect(Capabilities.decide(replies: xterm, window: nil, environment: [:], choice: .halfblock).mode == .halfBlock(.palette256))
        #expect(Capabilities.decide(replies: tmux, window: nil, environment: [:], choice: .sixel).mode.isSixel)
    }
}
