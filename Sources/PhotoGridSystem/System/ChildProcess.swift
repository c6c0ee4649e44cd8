import Glibc

/// Starting other programs: the C strings `posix_spawn` takes, and a program run for its output
/// (tmux asked about its terminal, ffmpeg for a video's frame), bounded in time and size.
package enum ChildProcess {
    /// `arguments` as a NULL-ended argv of C strings, for the length of `body`. Bytes, as the
    /// kernel has paths, not necessarily UTF-8.
    static func withArgv<T>(_ arguments: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        return body(argv)
    }

    /// Whether `program` is an executable file, as given when it has a slash, else on `path`.
    package static func isRunnable(_ program: String, path: String?) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        return (path ?? "/usr/bin:/bin").split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    package enum Failure: Error, Equatable {
        case notStarted(String)
        case timedOut
        case cancelled
        case tooLarge
        /// It ended other than with status 0.
        case failed
    }

    /// Runs `arguments[0]` (found on PATH) with no input and its errors discarded, and returns
    /// what it wrote once it exits with status 0. It is killed at `timeout` milliseconds, past
    /// `limit` bytes of output, or when `cancelled` says so (asked every 100 ms). `ownSession`
    /// puts it in a session of its own, where the terminal's signals never reach it.
    package static func output(_ arguments: [[UInt8]], timeout: Int, limit: Int, ownSession: Bool = false,
                       cancelled: () -> Bool = { false }) -> Result<[UInt8], Failure> {
        let ends: [Int32]
        do throws(SystemError) {
            let pipe = try FileDescriptor.pipe(nonBlocking: false)
            ends = [pipe.read.raw, pipe.write.raw]
        } catch {
            return .failure(.notStarted("pipe: " + error.description))
        }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // No signal blocked, whatever the calling thread blocks; POSIX_SPAWN_SETSID is 0x80 in
        // glibc 2.26 and later (Swift does not see the GNU-only name).
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK) | (ownSession ? 0x80 : 0))
        var pid: pid_t = 0
        let spawned = withArgv(arguments) { argv in posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, environ) }
        close(ends[1])
        guard spawned == 0 else { return .failure(.notStarted(String(cString: strerror(spawned)))) }

        var output: [UInt8] = []
        let deadline = SystemClock().now() + timeout
        var stopped: Failure?
        while true {
            if cancelled() { stopped = .cancelled; break }
            let left = deadline - SystemClock().now()
            if left <= 0 { stopped = .timedOut; break }
            // nil is the end of its output; empty, nothing yet.
            guard let bytes = TTY.read(ends[0], waitingUpTo: Int32(min(left, 100))) else { break }
            output += bytes
            if output.count > limit { stopped = .tooLarge; break }
        }
        if stopped != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let stopped { return .failure(stopped) }
        // Exited normally with status 0 (the low seven bits are the signal, the next eight the code).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return .failure(.failed) }
        return .success(output)
    }
}

