import CGlibc
import Glibc

/// The terminal device below ncurses: size, raw reads for the capability probe, and writes.
package enum TTY {
    package struct WindowSize: Equatable, Sendable {
        package var columns: Int, rows: Int
        /// Zero where the terminal does not report pixels.
        package var pixelWidth: Int, pixelHeight: Int
    }

    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    package static func windowSize(_ fd: Int32 = 1) -> WindowSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return WindowSize(columns: Int(size.ws_col), rows: Int(size.ws_row),
                          pixelWidth: Int(size.ws_xpixel), pixelHeight: Int(size.ws_ypixel))
    }

    package struct WriteError: Error, CustomStringConvertible {
        package let description: String
        /// The reader went away (`photogrid --print | head`).
        package var brokenPipe = false
    }

    /// The status a shell shows for a program that SIGPIPE ended: 141.
    package static let brokenPipeStatus = 128 + SIGPIPE

    /// Writes every byte, through interrupted and partial writes.
    /// Nothing more once photogrid is dying of a signal (`CrashGuard`): the terminal is being
    /// given back, and a frame's rest would land on the shell's screen.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32 = 1) throws(WriteError) {
        var written = 0
        while written < bytes.count {
            // Counted before the flag is read: the handler, which sets the flag first, then waits
            // for the count to fall to nothing, never misses a write that saw the flag unset.
            if let writing = CrashGuard.writing { pg_count_add(writing, 1) }
            defer { if let writing = CrashGuard.writing { pg_count_add(writing, -1) } }
            if let dying = CrashGuard.dying, pg_flag_get(dying) != 0 { return }
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 100)
                    continue
                }
                throw WriteError(description: String(cString: strerror(errno)), brokenPipe: errno == EPIPE)
            }
            written += n
        }
    }

    /// A terminal's modes, as `modes` found them, for `restore`.
    package struct Modes: @unchecked Sendable { fileprivate var value: termios }

    /// The modes of the terminal on `fd`; nil where it is not one.
    package static func modes(_ fd: Int32) -> Modes? {
        var value = termios()
        return tcgetattr(fd, &value) == 0 ? Modes(value: value) : nil
    }

    package static func restore(_ modes: Modes, to fd: Int32) {
        var value = modes.value
        tcsetattr(fd, TCSANOW, &value)
    }

    /// Non-canonical, no-echo input for the length of `body`, then the modes as they were.
    package static func withRawInput<T>(_ fd: Int32, _ body: () -> T) -> T {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return body() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(fd, TCSANOW, &raw)
        defer { tcsetattr(fd, TCSANOW, &saved) }
        return body()
    }

    /// Bytes available on `fd` within `milliseconds`; empty when none came; nil at end of input.
    package static func read(_ fd: Int32, waitingUpTo milliseconds: Int32) -> [UInt8]? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, milliseconds)
        guard ready > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if n == 0 { return nil }
        return Array(buffer[0..<n])
    }


    /// Closes standard output: whoever reads it sees its end (a `--print` frame is complete).
    /// Descriptor 1 is then /dev/null rather than free: the next file opened (the disk cache's
    /// after a sheet) would take it, and anything printed after would land in that file.
    package static func closeStandardOutput() {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { close(1); return }
        if null != 1 { dup2(null, 1); close(null) }
    }
}
