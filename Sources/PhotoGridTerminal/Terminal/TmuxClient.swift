import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What tmux knows of the terminal it is shown in. tmux 3.4 and later, built with sixel, lists
/// sixel in its own DA1 answer whatever that terminal is, and draws a sixel picture as a box of
/// `+` for a terminal without sixel (`tty_cmd_sixelimage` in its tty.c): only the features tmux
/// found in the attached terminal (`client_termfeatures`) say whether a picture would be seen.
/// Likewise kitty's pictures: tmux passes them to the terminal only with `allow-passthrough`
/// on, and only a kitty of 0.28 or later draws them there (as Unicode placeholders); tmux
/// 3.3 and later keep that terminal's XTVERSION answer as `client_termtype`.
package enum TmuxClient {
    struct Attached: Equatable, Sendable {
        /// The attached terminal's features as tmux lists them ("RGB", "sixel", ...).
        var features: [String]
        /// What the attached terminal said it is ("kitty(0.32.2)"), empty when tmux does not know.
        var termType: String
        /// Its TERM where tmux was attached ("xterm-kitty").
        var termName = ""
        /// Whether this pane passes escape sequences through to that terminal.
        var passthrough: Bool
        /// tmux has the option at all: 3.3 or later, which also keeps the terminal's type.
        var knowsPassthrough = true
    }

    /// What tmux knows of the terminal it is shown in, nil when tmux cannot be run or does not
    /// answer within `timeoutMilliseconds`. One run of tmux, during the probe.
    ///
    /// tmux asks the terminal what it is when a client attaches, and the answer comes a moment
    /// later: a photogrid started as the session's command (`tmux new photogrid`) asks before it
    /// has come. A kitty (by its TERM) not yet known is asked about again, for up to 0.4 s, by a
    /// tmux that keeps types at all (3.3 and later: one before would be asked in vain).
    static func attached(timeoutMilliseconds: Int = 500) -> Attached? {
        let started = SystemClock().now()
        while true {
            guard let text = run(["tmux", "display-message", "-p", "#{client_termfeatures}|#{client_termname}|#{client_termtype}|#{allow-passthrough}"],
                                 timeoutMilliseconds: timeoutMilliseconds)
            else { return nil }
            let attached = parse(text)
            guard attached.termType.isEmpty, attached.knowsPassthrough, attached.termName.hasPrefix("xterm-kitty"),
                  SystemClock().now() - started < 400
            else { return attached }
            SystemClock.sleep(milliseconds: 40)
        }
    }

    /// tmux's line: features, TERM, the terminal's type (its words come from the terminal:
    /// anything but a newline, so it is what lies between), and the option ("1" or "0" in tmux
    /// 3.3, "on", "all" or "off" later, nothing before 3.3).
    static func parse(_ text: String) -> Attached {
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let features = fields.isEmpty ? [] : fields.removeFirst().split(separator: ",").map { String($0).trimmingSpaces }
        let name = fields.isEmpty ? "" : fields.removeFirst()
        let option = fields.count >= 2 ? fields.removeLast().trimmingSpaces : ""
        let type = TerminalText.sanitize(fields.joined(separator: "|"))
        return Attached(features: features, termType: String(type.prefix(80)), termName: String(TerminalText.sanitize(name).prefix(80)),
                        passthrough: ["1", "on", "all"].contains(option), knowsPassthrough: !option.isEmpty)
    }

    /// The version of a kitty tmux is shown in, from its type ("kitty(0.32.2)"): nil for any
    /// other terminal.
    static func kittyVersion(_ termType: String) -> (major: Int, minor: Int)? {
        guard termType.hasPrefix("kitty("), termType.hasSuffix(")") else { return nil }
        let numbers = termType.dropFirst(6).dropLast().split(separator: ".").map { Int($0) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return nil }
        return (major, minor)
    }

    /// Whether that terminal draws kitty's Unicode placeholders: kitty 0.28 and later.
    static func drawsPlaceholders(_ termType: String) -> Bool {
        guard let version = kittyVersion(termType) else { return false }
        return version.major > 0 || version.minor >= 28
    }

    /// How text gets to the clipboard from inside tmux: its `set-clipboard` takes a program's
    /// OSC 52 only when `on`; its default, `external`, drops it (tmux sets the terminal's
    /// clipboard for its own copies only), so the text goes in as tmux's own buffer with `-w`,
    /// which tmux also sends to the terminal's clipboard where the terminal has one.
    package enum Clipboard: Equatable { case passesOn, copied, off, failed }

    package static func copy(_ text: [UInt8]) -> Clipboard {
        guard let setting = run(["tmux", "show-options", "-sv", "set-clipboard"], timeoutMilliseconds: 500) else { return .failed }
        switch setting.trimmingSpaces.filter({ $0 != "\n" }) {
        case "on": return .passesOn
        case "off": return .off
        default:
            let done = ChildProcess.output([Array("tmux".utf8), Array("set-buffer".utf8), Array("-w".utf8), Array("--".utf8), text],
                                           timeout: 500, limit: 4096)
            if case .success = done { return .copied }
            return .failed
        }
    }

    /// A program's output if it exits 0 within `timeoutMilliseconds` (a program still running
    /// then is killed) and writes at most 4 KB.
    private static func run(_ arguments: [String], timeoutMilliseconds: Int) -> String? {
        guard case .success(let output) = ChildProcess.output(arguments.map { Array($0.utf8) }, timeout: timeoutMilliseconds, limit: 4096)
        else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}

private extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
