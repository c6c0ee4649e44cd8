import Glibc

/// `o`: the focused or marked photos handed to another program: `$PHOTOGRID_OPENER` with the
/// paths as its arguments (words split as a shell splits them, so "gimp -n" works), else
/// `xdg-open` once a photo. The program runs in a session of its own, its input and output on
/// /dev/null, and photogrid does not wait for it: the terminal stays photogrid's, and a Ctrl-C
/// there does not reach the program. A program that fails or hangs costs photogrid nothing.
enum Opener {
    /// Starts the opener; nil when started, else why not, for the status line.
    static func open(_ paths: [RawPath], environment: [String: String]) -> String? {
        guard !paths.isEmpty else { return "nothing to open" }
        let script: String
        if let opener = environment["PHOTOGRID_OPENER"], !opener.allSatisfy({ $0 == " " }) {
            guard let program = opener.split(separator: " ").first, isRunnable(String(program), path: environment["PATH"]) else {
                return "PHOTOGRID_OPENER: \(opener.split(separator: " ").first.map(String.init) ?? opener) not found"
            }
            script = "( $PHOTOGRID_OPENER \"$@\" ) </dev/null >/dev/null 2>&1 &"
        } else {
            guard isRunnable("xdg-open", path: environment["PATH"]) else { return "no xdg-open: set PHOTOGRID_OPENER to a program" }
            script = "( for f; do xdg-open \"$f\"; done ) </dev/null >/dev/null 2>&1 &"
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc 2.26, 0x80; Swift does not see the GNU-only name).
        posix_spawnattr_setflags(&attributes, 0x80)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        // Paths as the kernel has them: bytes, not necessarily UTF-8.
        let arguments = [Array("sh".utf8), Array("-c".utf8), Array(script.utf8), Array("sh".utf8)] + paths.map(\.bytes)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ) == 0 else { return "cannot run /bin/sh" }
        // The shell puts the opener in the background and exits at once.
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }

    /// Whether `program` is an executable file, as given when it has a slash, else on `path`.
    static func isRunnable(_ program: String, path: String?) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        return (path ?? "/usr/bin:/bin").split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}
