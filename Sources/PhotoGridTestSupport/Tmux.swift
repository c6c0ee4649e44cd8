import Glibc
import PhotoGridCore

/// A tmux server of its own (its own socket), running one command in a pane of a given size:
/// keys go in with send-keys, the screen comes out with capture-pane. For end-to-end tests and
/// soaks that drive the built binary as a user would.
package final class Tmux {
    package let socket: String
    package let session = "t"
    /// The run's own disk cache, so that tests never touch the user's.
    package let cacheHome: String
    /// Everything the command writes to its pane (`pipe-pane`), pictures included, which tmux
    /// passes on and does not keep: the waits below are woken by its writes. Nil with
    /// `keepOutput` false (the soak: an hour of frames would fill /tmp), where they look every
    /// tenth of a second instead.
    package let paneLog: String?

    package init(columns: Int, rows: Int, command: String, environment: [String: String] = [:], keepOutput: Bool = true) throws {
        var template = Array("/tmp/photogrid-tmux-XXXXXX".utf8CString)
        cacheHome = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        socket = "photogrid-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var logTemplate = Array("/tmp/photogrid-pane-XXXXXX".utf8CString)
        paneLog = keepOutput ? logTemplate.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) } + "/pane.log" : nil
        let env = (["XDG_CACHE_HOME": cacheHome].merging(environment) { $1 }).map { "\($0.key)=\($0.value)" }
            .joined(separator: " ")
        // The pane's output goes to the log from before the command starts (tmux inside the
        // pane finds its server through $TMUX). The trailing sleep keeps the pane after the
        // command ends, to look at what it left.
        let keep = paneLog.map { "tmux pipe-pane -O 'cat > \($0)'; " } ?? ""
        let shellCommand = keep + "env \(env) \(command); echo \"[exit $?]\"; sleep 120"
        // The server this starts keeps whatever stdout it inherits open: give it none to hold.
        try Tmux.command(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                          "-x", "\(columns)", "-y", "\(rows)", shellCommand], output: false)
    }

    deinit {
        _ = try? run(["kill-server"])
        _ = try? Subprocess.run(["rm", "-rf", cacheHome] + (paneLog.map { [String($0.dropLast("/pane.log".count))] } ?? []), capture: false)
    }

    @discardableResult
    package func run(_ arguments: [String]) throws -> String {
        try Tmux.command(["tmux", "-L", socket, "-f", "/dev/null"] + arguments)
    }

    @discardableResult
    package static func command(_ arguments: [String], output: Bool = true) throws -> String {
        String(decoding: try Subprocess.run(arguments, capture: output).output, as: UTF8.self)
    }

    /// Keys as tmux names them ("q", "Up", "C-c", "+").
    package func send(_ keys: String...) throws { try send(keys) }

    package func send(_ keys: [String]) throws {
        for key in keys { try run(["send-keys", "-t", session, key]) }
    }

    /// The screen as text (`escapes`: with colour sequences).
    package func screen(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", session] + (escapes ? ["-e"] : []))
    }

    package func value(_ format: String) throws -> String {
        let text = try run(["display-message", "-p", "-t", session, format])
        return String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    package func pid() throws -> Int32 { Int32(try value("#{pane_pid}")) ?? 0 }

    /// Waits up to `seconds` for the screen to satisfy `test`; returns the last screen either way.
    /// The screen is looked at again when the command writes to its pane, and at least every
    /// half second (tmux itself changes the screen on a resize).
    @discardableResult
    package func waitFor(seconds: Double = 20, escapes: Bool = false, _ test: (String) -> Bool) throws -> (Bool, String) {
        let deadline = SystemClock().seconds() + seconds
        let writes = paneLog.map(WriteWatch.init)
        var last = ""
        while true {
            last = try screen(escapes: escapes)
            if test(last) { return (true, last) }
            let left = deadline - SystemClock().seconds()
            guard left > 0 else { return (false, last) }
            if let writes { writes.wait(seconds: min(0.5, left)) } else { usleep(UInt32(min(0.1, left) * 1_000_000)) }
        }
    }

    /// Waits until the command has written nothing to its pane for `quiet` seconds (a repaint
    /// done), at most `limit` seconds; whether it was quiet that long.
    @discardableResult
    package func waitForQuiet(_ quiet: Double, limit: Double = 20) -> Bool {
        guard let paneLog else { preconditionFailure("waitForQuiet needs the pane's output kept") }
        return WriteWatch(paneLog).waitForQuiet(quiet, limit: limit)
    }
}
