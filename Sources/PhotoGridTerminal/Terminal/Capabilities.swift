import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// `--mode`: how the user asked tiles to be drawn.
package enum ModeChoice: String, CaseIterable, Sendable {
    case auto, kitty, iterm, sixel, halfblock
}

/// What photogrid will do with this terminal: render mode, cell size in pixels, and the private
/// modes it changes for its run (and gives back at exit).
package struct Capabilities: Sendable, Equatable {
    package var mode: RenderMode
    package var cellWidth: Int
    package var cellHeight: Int
    /// Where the cell size came from, for `--probe` and the docs.
    package var cellSizeSource: String
    /// Why the mode was chosen, for `--probe`.
    package var modeReason = ""
    /// How this terminal could show real pictures, for the first status line; nil when it does
    /// or nothing is known.
    package var pictureHint: String?
    /// The largest sixel picture the terminal draws (XTSMGRAPHICS), 0 where it did not say.
    package var maxImageWidth = 0, maxImageHeight = 0
    /// The terminal shows a frame wrapped in `CSI ? 2026 h` ... `l` at once.
    package var synchronizedOutput = false
    /// How the painters make cells plain (`Blanking`): over pictures the terminal keeps under
    /// erased text, a background one step off its default.
    package var blanking = Blanking()
    /// Sent after start-up and at exit.
    package var enterSequence: [UInt8] = []
    package var exitSequence: [UInt8] = []

    package static let defaultCell = (width: 10, height: 20)

    /// Picks the mode and cell size. Cell size: TIOCGWINSZ pixels, else `CSI 16 t`, else `CSI 14 t`
    /// or XTSMGRAPHICS divided by the cells, else 10x20.
    package static func decide(replies: TerminalReplies, window: TTY.WindowSize?, environment: [String: String],
                              choice: ModeChoice) -> Capabilities {
        let colors: HalfBlock.Colors = colorDepth(environment)
        // The kitty graphics protocol first: 24-bit pictures sent once each. Then sixel.
        let tmux = isTmux(environment)
        let kitty = choice == .kitty || (choice == .auto && (replies.supportsKitty || (tmux && drawsKittyThroughTmux(replies))))
        let iterm = !kitty && (choice == .iterm || (choice == .auto && drawsITermImages(replies: replies, environment: environment)))
        let sixel = !kitty && !iterm && (choice == .sixel || (choice == .auto && replies.supportsSixel))
        let registers = max(2, min(256, replies.colorRegisters ?? 256))
        var (width, height, source) = (defaultCell.width, defaultCell.height, "default 10x20")
        if let w = window, w.pixelWidth > 0, w.pixelHeight > 0, w.pixelWidth >= w.columns, w.pixelHeight >= w.rows {
            (width, height, source) = (w.pixelWidth / w.columns, w.pixelHeight / w.rows, "TIOCGWINSZ")
        } else if let cell = replies.cellSize, cell.width > 0, cell.height > 0 {
            (width, height, source) = (cell.width, cell.height, "CSI 16 t")
        } else if let cell = replies.iTermCellSize {
            (width, height, source) = (cell.width, cell.height, "iTerm2 ReportCellSize")
        } else if let area = replies.textAreaSize, let w = window, area.width >= w.columns, area.height >= w.rows {
            (width, height, source) = (area.width / w.columns, area.height / w.rows, "CSI 14 t")
        } else if let area = replies.graphicsSize, let w = window, area.width >= w.columns, area.height >= w.rows {
            (width, height, source) = (area.width / w.columns, area.height / w.rows, "XTSMGRAPHICS")
        }
        // Pictures as files where the terminal read the probe's file: it runs on this machine.
        // Through tmux, as Unicode placeholders in tmux's text.
        let transfer: Kitty.Transfer = tmux ? .tmux : replies.kittyFiles == true ? .file : .inline
        var caps = Capabilities(mode: kitty ? .kitty(transfer) : iterm ? .iterm : sixel ? .sixel(colors: registers) : .halfBlock(colors),
                                cellWidth: width, cellHeight: height, cellSizeSource: source)
        caps.modeReason = reason(choice: choice, replies: replies, environment: environment)
        caps.synchronizedOutput = replies.synchronizedOutput
        if sixel || iterm { caps.blanking = .hiding(under: replies.background, trueColor: colors == .trueColor) }
        if choice == .auto, !kitty, !iterm, !sixel, !isMultiplexer(environment),
           !(environment["XTERM_VERSION"] ?? "").isEmpty || (replies.terminalName ?? "").hasPrefix("XTerm") {
            caps.pictureHint = "xterm -ti vt340 shows pictures"
        }
        if choice == .auto, !kitty, tmux, replies.tmuxPassthrough == false, TmuxClient.drawsPlaceholders(replies.tmuxClientType ?? "") {
            caps.pictureHint = "tmux: set -g allow-passthrough on for pictures"
        }
        // Nothing of ours stays in the terminal's memory after photogrid.
        // (Through tmux the terminal is shared with other panes: the pictures go one by one,
        // `KittyScreen.leave`.)
        if kitty && transfer != .tmux { caps.exitSequence += Kitty.deleteAll }
        if sixel {
            // A limit smaller than a cell would be a misreading: ignore it rather than draw nothing.
            if let limit = replies.graphicsSize, limit.width >= width, limit.height >= height {
                (caps.maxImageWidth, caps.maxImageHeight) = (limit.width, limit.height)
            }
            // Images must be drawn at the cursor (sixel display mode off) and keep their own palette.
            if replies.privateModes[80] == 1 {
                caps.enterSequence += Array("\u{1B}[?80l".utf8); caps.exitSequence += Array("\u{1B}[?80h".utf8)
            }
            if replies.privateModes[1070] == 2 {
                caps.enterSequence += Array("\u{1B}[?1070h".utf8); caps.exitSequence += Array("\u{1B}[?1070l".utf8)
            }
        }
        return caps
    }

    /// `--probe`'s lines: what the terminal answered (in `elapsed` ms) and what photogrid makes of it.
    package static func report(replies: TerminalReplies, window: TTY.WindowSize?, environment env: [String: String], choice: ModeChoice,
                               elapsed: Int) -> [String] {
        let caps = decide(replies: replies, window: window, environment: env, choice: choice)
        return [
            "TERM=\(env["TERM"] ?? "") COLORTERM=\(env["COLORTERM"] ?? "")",
            "DA1: \(replies.deviceAttributes.map { $0.map(String.init).joined(separator: ";") } ?? "no answer") (in \(elapsed) ms)",
            "kitty graphics: " + (replies.kittyGraphics.map { $0 ? "yes" : "refused" } ?? "no answer")
                + (replies.kittyGraphics == true ? ", pictures as files: " + (replies.kittyFiles.map { $0 ? "yes (same machine)" : "no" } ?? "no answer") : ""),
            "XTVERSION: " + (replies.terminalName ?? "no answer") + ", TERM_PROGRAM=" + (env["TERM_PROGRAM"] ?? ""),
            "sixel: \(replies.supportsSixel ? "yes" : "no"), colour registers: \(replies.colorRegisters.map(String.init) ?? "not said")"
                + (replies.tmuxClientFeatures.map { ", tmux's terminal has: " + $0.joined(separator: ",") } ?? ""),
            replies.tmuxClientType.map { "tmux is shown in: " + ($0.isEmpty ? "not said" : $0)
                + ", allow-passthrough: " + (replies.tmuxPassthrough == true ? "on" : "off") } ?? "",
            "window: " + (window.map { "\($0.columns)x\($0.rows) cells, \($0.pixelWidth)x\($0.pixelHeight) pixels" } ?? "unknown"),
            "CSI 16 t: " + (replies.cellSize.map { "\($0.width)x\($0.height)" } ?? "no answer")
                + ", CSI 14 t: " + (replies.textAreaSize.map { "\($0.width)x\($0.height)" } ?? "no answer")
                + ", XTSMGRAPHICS geometry: " + (replies.graphicsSize.map { "\($0.width)x\($0.height)" } ?? "no answer"),
            "cell: \(caps.cellWidth)x\(caps.cellHeight) pixels (from \(caps.cellSizeSource))",
            "largest sixel picture: " + (caps.maxImageWidth > 0 ? "\(caps.maxImageWidth)x\(caps.maxImageHeight) (larger ones go in pieces)" : "not said"),
            "synchronized output (DECRQM 2026): " + (replies.privateModes[2026].map { $0 == 1 || $0 == 2 ? "yes" : "no (\($0))" } ?? "no answer")
                + ", background (OSC 11): " + (replies.background.map { "\($0)" } ?? "no answer"),
            "mode: \(caps.mode) (\(caps.modeReason))",
        ]
    }

    /// 24-bit where COLORTERM says so, and inside tmux, which takes 24-bit colour whatever its
    /// TERM and maps it down itself for a client that lacks it (its COLORTERM is usually empty).
    package static func colorDepth(_ environment: [String: String]) -> HalfBlock.Colors {
        let value = (environment["COLORTERM"] ?? "").lowercased()
        if value == "truecolor" || value == "24bit" { return .trueColor }
        return isTmux(environment) ? .trueColor : .palette256
    }

    /// iTerm2, WezTerm, mintty by TERM_PROGRAM or XTVERSION; VS Code's terminal only when it
    /// lists sixel in DA1 as well (it draws pictures only with its images setting on).
    static func drawsITermImages(replies: TerminalReplies, environment: [String: String]) -> Bool {
        let program = environment["TERM_PROGRAM"]
        if program == "vscode" { return replies.supportsSixel }
        return !isMultiplexer(environment) && ITerm.isKnown(termProgram: program, version: replies.terminalName)
    }

    /// Inside tmux: the terminal it is shown in is a kitty that draws Unicode placeholders, and
    /// this pane passes kitty's commands through to it.
    static func drawsKittyThroughTmux(_ replies: TerminalReplies) -> Bool {
        replies.tmuxPassthrough == true && TmuxClient.drawsPlaceholders(replies.tmuxClientType ?? "")
    }

    package static func isTmux(_ environment: [String: String]) -> Bool {
        !(environment["TMUX"] ?? "").isEmpty || (environment["TERM"] ?? "").hasPrefix("tmux")
    }

    /// tmux or GNU screen (which sets TERM to screen*, and STY).
    static func isMultiplexer(_ environment: [String: String]) -> Bool {
        isTmux(environment) || (environment["TERM"] ?? "").hasPrefix("screen") || !(environment["STY"] ?? "").isEmpty
    }

    /// Why the mode was chosen, in words for `--probe`, with the setting that would give
    /// pictures where there is one.
    static func reason(choice: ModeChoice, replies: TerminalReplies, environment: [String: String]) -> String {
        if choice != .auto {
            return "--mode \(choice.rawValue)" + (choice == .kitty && isTmux(environment) ? ", inside tmux: as Unicode placeholders through its passthrough" : "")
        }
        if replies.supportsKitty { return "the terminal answered the kitty graphics query and took a picture" }
        let shownIn = replies.tmuxClientType.flatMap { $0.isEmpty ? nil : $0 }
        if isTmux(environment), drawsKittyThroughTmux(replies) {
            return "inside tmux, shown in \(shownIn ?? "kitty") with allow-passthrough on: kitty pictures as Unicode placeholders"
        }
        let ignored = replies.kittyIgnoresPictures ? " (it answered the kitty graphics query but not a picture sent to it)" : ""
        if drawsITermImages(replies: replies, environment: environment) {
            return "the terminal is \(replies.terminalName ?? environment["TERM_PROGRAM"] ?? "one"), which draws iTerm2 inline images" + ignored
        }
        if replies.supportsSixel { return "the terminal's DA1 lists sixel (4)" + ignored }
        if let features = replies.tmuxClientFeatures, replies.deviceAttributes?.contains(4) == true {
            return "tmux lists sixel but the terminal it is shown in has none (client_termfeatures: \(features.joined(separator: ","))); "
                + "if that terminal does draw sixel: `set -as terminal-features ',*:sixel'` in tmux, then detach and attach again"
        }
        var words = replies.kittyGraphics == false ? "the terminal refused the kitty graphics query and lists no sixel in DA1"
            : replies.kittyIgnoresPictures ? "the terminal answered the kitty graphics query but not a picture sent to it, and lists no sixel in DA1"
            : "no kitty graphics answer and no sixel in DA1"
        if isTmux(environment), let shownIn, TmuxClient.drawsPlaceholders(shownIn) {
            words += "; tmux is shown in \(shownIn), which draws pictures through tmux: `set -g allow-passthrough on` in tmux, then start photogrid again"
        } else if isTmux(environment), let shownIn, TmuxClient.kittyVersion(shownIn) != nil {
            words += "; tmux is shown in \(shownIn): pictures through tmux need kitty 0.28 or later (Unicode placeholders)"
        } else if isTmux(environment) {
            words += "; inside tmux, pictures need tmux 3.4 or later built with sixel, or kitty 0.28 or later outside it and `set -g allow-passthrough on`"
        } else if isMultiplexer(environment) {
            words += "; GNU screen passes no pictures: half-blocks, 24-bit only where screen 5 has `truecolor on`"
        } else if !(environment["XTERM_VERSION"] ?? "").isEmpty || (replies.terminalName ?? "").hasPrefix("XTerm") {
            words += "; xterm draws real pictures when started as `xterm -ti vt340`"
        }
        return words
    }
}

/// Asks the terminal what it can do, before ncurses starts.
package enum TerminalProbe {
    /// More than any answer to our queries takes: what has not ended by then is dropped.
    static let longestReply = 65536

    /// Asks DA1 and waits up to `timeoutMilliseconds` for its answer: terminals answer in order,
    /// so when it comes, the terminal has taken everything written before it (kitty has read the
    /// files it was handed). Whether it came.
    package static func caughtUp(input: Int32 = 0, output: Int32 = 1, timeoutMilliseconds: Int) -> Bool {
        TTY.withRawInput(input) {
            guard (try? TTY.writeAll(Array("\u{1B}[c".utf8), to: output)) != nil else { return false }
            let deadline = SystemClock().now() + timeoutMilliseconds
            var pending: [UInt8] = []
            while true {
                let left = deadline - SystemClock().now()
                guard left > 0, let bytes = TTY.read(input, waitingUpTo: Int32(left)) else { return false }
                let (parsed, incomplete) = TerminalReplies.parse(pending + bytes)
                if parsed.deviceAttributes != nil { return true }
                // Untrusted: a "reply" that never ends is not kept growing.
                pending = incomplete.count > TerminalProbe.longestReply ? [] : incomplete
            }
        }
    }

    /// Sends the queries in one batch ending with DA1 and reads until the DA1 reply or the timeout.
    package static func run(input: Int32 = 0, output: Int32 = 1, timeoutMilliseconds: Int = 1000,
                           environment: [String: String]) -> TerminalReplies {
        // Whether a kitty terminal reads files from here: a picture of one pixel in a file it is
        // asked about (it deletes the file when it reads it; it is removed here otherwise).
        let file = Capabilities.isMultiplexer(environment) || environment["TERM"] == "linux" ? nil : Kitty.writeProbeFile()
        defer { if let file { Kitty.remove(file) } }
        let query = (file.map { Kitty.fileQuery(path: $0) } ?? []) + TerminalReplies.query(environment: environment)
        return TTY.withRawInput(input) {
            var replies = TerminalReplies()
            guard (try? TTY.writeAll(query, to: output)) != nil else { return replies }
            let deadline = SystemClock().now() + timeoutMilliseconds
            var pending: [UInt8] = []
            while replies.deviceAttributes == nil {
                let left = deadline - SystemClock().now()
                guard left > 0, let bytes = TTY.read(input, waitingUpTo: Int32(left)) else { break }
                let (parsed, incomplete) = TerminalReplies.parse(pending + bytes)
                replies.merge(parsed)
                pending = incomplete.count > TerminalProbe.longestReply ? [] : incomplete
            }
            replies.other += pending
            if Capabilities.isTmux(environment), let attached = TmuxClient.attached() {
                replies.tmuxClientFeatures = attached.features
                replies.tmuxClientType = attached.termType
                replies.tmuxPassthrough = attached.passthrough
            }
            return replies
        }
    }
}
