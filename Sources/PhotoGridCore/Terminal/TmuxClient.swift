import Glibc

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

    /// Runs a program found on PATH with no input and its errors discarded; its first 4 KB of
    /// output if it exits 0 in time. A program still running at the deadline is killed.
    private static func run(_ arguments: [String], timeoutMilliseconds: Int) -> String? {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return nil }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { return nil }
        var output: [UInt8] = []
        let deadline = TTY.now() + timeoutMilliseconds
        var finished = false
        while output.count < 4096 {
            let left = deadline - TTY.now()
            guard left > 0 else { break }
            // nil is the end of its output; empty, nothing yet.
            guard let bytes = TTY.read(pipeEnds[0], waitingUpTo: Int32(left)) else { finished = true; break }
            output += bytes
        }
        if !finished { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited normally with status 0 (the low seven bits are the signal, the next eight the code).
        guard finished, status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
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
