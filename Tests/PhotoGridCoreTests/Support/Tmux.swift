import PhotoGridSamples
import Foundation

/// A tmux server of the test's own (its own socket), running one command in a pane of a given
/// size: keys go in with send-keys, the screen comes out with capture-pane.
final class Tmux {
    let socket: String
    let session = "t"
    /// The run's own disk cache, so that tests never touch the user's.
    let cacheHome = TestImages.scratchFolder("tmux-cache")

    init(columns: Int, rows: Int, command: String, environment: [String: String] = [:]) throws {
        socket = "photogrid-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let env = (["XDG_CACHE_HOME": cacheHome].merging(environment) { $1 }).map { "\($0.key)=\($0.value)" }
            .joined(separator: " ")
        // The trailing sleep keeps the pane after the command ends, to look at what it left.
        let shellCommand = "env \(env) \(command); echo \"[exit $?]\"; sleep 120"
        // The server this starts keeps whatever stdout it inherits open: give it none to hold.
        try Tmux.command(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                          "-x", "\(columns)", "-y", "\(rows)", shellCommand], output: false)
    }

    deinit {
        _ = try? run(["kill-server"])
        TestImages.remove(cacheHome)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        try Tmux.command(["tmux", "-L", socket, "-f", "/dev/null"] + arguments)
    }

    @discardableResult
    static func command(_ arguments: [String], output: Bool = true) throws -> String {
        String(decoding: try Subprocess.run(arguments, capture: output).output, as: UTF8.self)
    }

    /// Keys as tmux names them ("q", "Up", "C-c", "+").
    func send(_ keys: String...) throws {
        for key in keys { try run(["send-keys", "-t", session, key]) }
    }

    /// The screen as text (`escapes`: with colour sequences).
    func screen(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", session] + (escapes ? ["-e"] : []))
    }

    func value(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func pid() throws -> Int32 { Int32(try value("#{pane_pid}")) ?? 0 }

    /// Waits up to `seconds` for the screen to satisfy `test`; returns the last screen either way.
    @discardableResult
    func waitFor(seconds: Double = 20, escapes: Bool = false, _ test: (String) -> Bool) throws -> (Bool, String) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen(escapes: escapes)
            if test(last) { return (true, last) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return (false, last)
    }
}

/// Where things are for the end-to-end tests.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static var binary: String {
        ProcessInfo.processInfo.environment["PHOTOGRID_BIN"] ?? root + "/.build/debug/photogrid"
    }
    static let gallery = root + "/sample-gallery"

    /// Runs photogrid outside any terminal, returning status, stdout and stderr.
    static func photogrid(_ arguments: [String], environment: [String: String]? = nil) throws -> (Int32, [UInt8], String) {
        let result = try Subprocess.run([binary] + arguments, environment: environment)
        return (result.status, result.output, result.errorText)
    }
}
