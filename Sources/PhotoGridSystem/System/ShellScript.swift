import Glibc

/// Runs `/bin/sh -c script sh arguments...` and waits for the shell: how `o` and the video
/// player start programs the user names (`$PHOTOGRID_OPENER`, `$PHOTOGRID_PLAYER`), whose words
/// the shell splits. Arguments are bytes, as the kernel has paths, not necessarily UTF-8.
package enum ShellScript {
    package enum Terminal {
        /// Input and output on /dev/null, in a session of its own: Ctrl-C in photogrid's terminal
        /// does not reach it.
        case detached
        /// The terminal as photogrid has it, SIGINT and SIGQUIT at their defaults.
        case inherited
    }

    /// The shell's exit status, or nil when it could not be started.
    package static func run(_ script: String, arguments: [[UInt8]], terminal: Terminal) -> Int32? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch terminal {
        case .detached:
            // POSIX_SPAWN_SETSID (glibc 2.26, 0x80; Swift does not see the GNU-only name).
            posix_spawnattr_setflags(&attributes, 0x80)
            for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        case .inherited:
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGINT)
            sigaddset(&defaults, SIGQUIT)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        }
        let all = [Array("sh".utf8), Array("-c".utf8), Array(script.utf8), Array("sh".utf8)] + arguments
        var pid: pid_t = 0
        let spawned = ChildProcess.withArgv(all) { argv in posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ) }
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}
