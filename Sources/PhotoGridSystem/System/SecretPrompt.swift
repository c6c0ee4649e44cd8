import Glibc

/// A password asked on the terminal itself (`/dev/tty`: stdin may be a pipe of paths), not
/// echoed. Read a key at a time with the terminal's signals off, so that Ctrl-C ends the
/// question rather than the process, and the terminal is always given back with its echo on.
package enum SecretPrompt {
    /// The line typed after `prompt`; nil when there is no terminal or the question was left
    /// (Ctrl-C, Ctrl-D, Escape).
    package static func ask(_ prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        say(prompt, to: fd)
        tcsetattr(fd, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(fd, TCSAFLUSH, &saved)
            say("\n", to: fd)
        }
        var typed: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return nil }
            switch byte {
            case 0x0D, 0x0A: return String(decoding: typed, as: UTF8.self)
            case 0x03, 0x04, 0x1B: return nil                 // Ctrl-C, Ctrl-D, Escape
            case 0x7F, 0x08: if !typed.isEmpty { typed.removeLast() }
            case 0x15: typed.removeAll()                      // Ctrl-U
            default: typed.append(byte)
            }
        }
    }

    private static func say(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    }
}
