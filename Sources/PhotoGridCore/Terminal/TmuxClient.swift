
/// What tmux knows of the terminal it is shown in. tmux 3.4 and later, built with sixel, lists
/// sixel in its own DA1 answer whatever that terminal is, and draws a sixel picture as a box of
/// `+` for a terminal without sixel (`tty_cmd_sixelimage` in its tty.c): only the features tmux
/// found in the attached terminal (`client_termfeatures`) say whether a picture would be seen.
enum TmuxClient {
    /// The attached terminal's features as tmux lists them ("RGB", "sixel", ...), nil when tmux
    /// cannot be run or does not answer within `timeoutMilliseconds`.
    static func features(timeoutMilliseconds: Int = 500) -> [String]? {
        guard let text = run(["tmux", "display-message", "-p", "#{client_termfeatures}"], timeoutMilliseconds: timeoutMilliseconds)
        else { return nil }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.split(separator: ",").map { String($0).trimmingSpaces }
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
