import Glibc

/// Enter on a video: `$PHOTOGRID_PLAYER` (words split as a shell splits them), else `mpv`, else
/// `xdg-open`, run in the foreground with the terminal handed over (`GridApp.play`), photogrid
/// waiting for it. Ctrl-C then stops the player, not photogrid: photogrid ignores SIGINT and
/// SIGQUIT meanwhile, and the player starts with them at their defaults.
enum Player {
    /// Plays `path` and returns when the player exits: nil, or why it could not be started.
    static func play(_ path: RawPath, environment: [String: String]) -> String? {
        let command: String
        if let player = environment["PHOTOGRID_PLAYER"], !player.allSatisfy({ $0 == " " }) {
            let program = player.split(separator: " ").first.map(String.init) ?? player
            guard Opener.isRunnable(program, path: environment["PATH"]) else { return "PHOTOGRID_PLAYER: \(program) not found" }
            command = "$PHOTOGRID_PLAYER \"$1\""
        } else if Opener.isRunnable("mpv", path: environment["PATH"]) {
            command = "mpv -- \"$1\""
        } else if Opener.isRunnable("xdg-open", path: environment["PATH"]) {
            command = "xdg-open \"$1\""
        } else {
            return "no video player: install mpv or set PHOTOGRID_PLAYER"
        }
        var ignore = sigaction(), oldInt = sigaction(), oldQuit = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let arguments = [Array("sh".utf8), Array("-c".utf8), Array(command.utf8), Array("sh".utf8), path.bytes]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ) == 0 else { return "cannot run /bin/sh" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status >> 8) & 0xFF
        return status & 0x7F == 0 && code != 0 ? "the player stopped with status \(code)" : nil
    }
}
