import Glibc
import PhotoGridCore

/// Runs a program and collects its output, its times and its peak memory, with posix_spawn and
/// wait4: for the end-to-end tests and the benchmark. (Foundation's Process was seen to hang in
/// waitUntilExit when the child starts a daemon, as `tmux new-session` does.)
package enum Subprocess {
    package struct Result: Sendable {
        package var status: Int32
        package var output: [UInt8]
        package var error: [UInt8]
        /// Seconds from the start to the end of its output (EOF on stdout), and to its exit.
        package var outputSeconds: Double
        package var seconds: Double
        /// Peak resident memory, from the kernel's accounting of the child. From `run` this is
        /// at least the parent's own peak (Linux carries the high-water mark across exec); use
        /// `runMeasuringMemory` for the program's own.
        package var maxResidentKilobytes: Int
        package var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    package enum Failure: Error, CustomStringConvertible {
        case spawn(Int32), noTimeCommand
        /// A program asked for in the fast run (`PHOTOGRID_FAST` set), which starts none: the
        /// test that asked is one to mark `.startsPrograms`.
        case fastRun(String)

        package var description: String {
            switch self {
            case .spawn(let code): "posix_spawn failed: \(code)"
            case .noTimeCommand: "/usr/bin/time is not installed (apt install time)"
            case .fastRun(let program):
                "this test started \(program) in the fast run (PHOTOGRID_FAST is set): a test that starts programs or servers is marked .startsPrograms"
            }
        }
    }

    /// Refuses, in the fast run, what it leaves out: a program, a server on a port.
    package static func refuseInFastRun(_ what: String) throws {
        if isFastRun { throw Failure.fastRun(what) }
    }

    /// The fast run (README): unit tests only, no program started.
    package static let isFastRun = getenv("PHOTOGRID_FAST").map { String(cString: $0) }.map { !$0.isEmpty && $0 != "0" } ?? false

    /// `run`, with the program's own peak memory: /usr/bin/time (Debian's `time`) forks it from
    /// a small process and reports it, where a child spawned straight from a large process (a
    /// test runner) would report that process's peak.
    package static func runMeasuringMemory(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        guard access("/usr/bin/time", X_OK) == 0 else { throw Failure.noTimeCommand }
        var template = Array("/tmp/photogrid-rss-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure.spawn(errno) }
        close(fd)
        let report = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        defer { unlink(report) }
        var result = try run(["/usr/bin/time", "-f", "%M", "-o", report] + arguments, environment: environment)
        var text: [UInt8] = []
        if let file = fopen(report, "r") {
            defer { fclose(file) }
            while case let c = fgetc(file), c != EOF { text.append(UInt8(c)) }
        }
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        result.maxResidentKilobytes = lines.last.flatMap { Int($0.filter(\.isNumber)) } ?? 0
        return result
    }

    /// `arguments[0]` is looked up on PATH. Without `capture` the output goes to /dev/null (for
    /// a command that leaves a daemon behind holding its stdout).
    @discardableResult
    package static func run(_ arguments: [String], environment: [String: String]? = nil, capture: Bool = true) throws -> Result {
        let started = SystemClock().seconds()
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        if capture { pipe(&outPipe); pipe(&errPipe) }
        let pid: pid_t
        do {
            pid = try spawn(arguments, environment: environment) { actions in
                if capture {
                    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
                    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
                    for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
                } else {
                    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                }
            }
        } catch {
            if capture { for fd in outPipe + errPipe { close(fd) } }
            throw error
        }
        if capture { close(outPipe[1]); close(errPipe[1]) }
        var output: [UInt8] = [], error: [UInt8] = []
        var outputEnd = started
        if capture {
            drain(outPipe[0], errPipe[0], into: &output, &error, outputEnd: &outputEnd)
            close(outPipe[0]); close(errPipe[0])
        }
        var exit: Int32 = 0
        var usage = rusage()
        while wait4(pid, &exit, 0, &usage) < 0 && errno == EINTR {}
        let finished = SystemClock().seconds()
        let code = (exit & 0x7F) == 0 ? (exit >> 8) & 0xFF : 128 + (exit & 0x7F)
        return Result(status: code, output: output, error: error, outputSeconds: (capture ? outputEnd : finished) - started,
                      seconds: finished - started, maxResidentKilobytes: usage.ru_maxrss)
    }

    /// A child given an environment of its own still gets the sanitizers' options
    /// (scripts/sanitize), so that an instrumented photogrid runs as the suite was told to.
    static func withSanitizerOptions(_ environment: [String: String]) -> [String: String] {
        var merged = environment
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"] where merged[name] == nil {
            if let value = Environment.value(name) { merged[name] = value }
        }
        return merged
    }

    /// Starts a program in the background (a server for a test), its output discarded.
    package static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> pid_t {
        try spawn(arguments, environment: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
    }

    /// posix_spawnp with stdin from /dev/null, stdout and stderr as `output` arranges, and
    /// every signal at its default and none blocked, whatever the test runner ignores: else
    /// `sleep` in a tmux pane outlives tmux's SIGHUP and its server.
    static func spawn(_ arguments: [String], environment: [String: String]?, flags: Int32 = 0,
                      output: (inout posix_spawn_file_actions_t) -> Void) throws -> pid_t {
        try refuseInFastRun(arguments.first ?? "a program")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        output(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | flags))
        var pid: pid_t = 0
        let env = environment.map { withSanitizerOptions($0).map { "\($0.key)=\($0.value)" } }
        let status = withCStrings(arguments) { argv in
            if let env { return withCStrings(env) { posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, $0) } }
            return posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        }
        guard status == 0 else { throw Failure.spawn(status) }
        return pid
    }

    /// Stops a program started with `start` and waits for it.
    package static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Waits up to `seconds` until something accepts connections on 127.0.0.1:`port`.
    package static func waitForPort(_ port: Int, seconds: Double = 10) -> Bool {
        let deadline = SystemClock().seconds() + seconds
        while SystemClock().seconds() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { return true }
            usleep(50_000)
        }
        return false
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    package static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Reads two pipes to their ends at once, so that neither fills up and blocks the child.
    private static func drain(_ a: Int32, _ b: Int32, into outA: inout [UInt8], _ outB: inout [UInt8], outputEnd: inout Double) {
        var open = [a, b]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 { if errno == EINTR { continue } else { return } }
            for p in fds where p.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(p.fd, $0.baseAddress!, $0.count) }
                if n > 0 {
                    if p.fd == a { outA += buffer[0..<n] } else { outB += buffer[0..<n] }
                } else if n == 0 || errno != EINTR {
                    open.removeAll { $0 == p.fd }
                    if p.fd == a { outputEnd = SystemClock().seconds() }
                }
            }
        }
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
