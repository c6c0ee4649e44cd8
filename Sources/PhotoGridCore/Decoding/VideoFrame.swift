import Glibc

/// A frame of a video for its tile, taken by `ffmpeg` when it is installed: the one Swift file
/// that runs it. ffmpeg is a program, not a library here: linking libavformat would make every
/// user install it, and a decoder that crashes on a hostile video takes down only its own process.
///
/// Bounded like every decode: one thread (the pipeline counts it as one CPU), a frame no larger
/// than asked for, at most `timeout` milliseconds and `maxOutput` bytes, and killed as soon as
/// nothing wants the tile any more. The frame is taken 1 s in (the first frame of a phone video is
/// often black), else at the start of a video shorter than that.
enum VideoFrame {
    static let timeout = 10_000
    static let maxOutput = 64 << 20
    /// The largest short side asked of ffmpeg: a 4K frame's.
    static let maxShortSide = 2160

    /// Whether `ffmpeg` is on the PATH, looked for once.
    static let isInstalled: Bool = {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/ffmpeg", X_OK) == 0 }
    }()

    /// The frame, upright (ffmpeg applies a phone's rotation tag), its short side at most
    /// `shortSide` (its own when smaller); nil when ffmpeg found no frame to give.
    /// `program` and `timeout` are for tests (a program that hangs).
    static func frame(of path: RawPath, shortSide: Int, program: String = "ffmpeg", timeout: Int = timeout) throws(DecodeError) -> RGBImage? {
        let side = min(max(16, shortSide), maxShortSide)
        for seek in ["1", nil] {
            if let image = try run(path, seek: seek, shortSide: side, program: program, timeout: timeout) { return image }
        }
        return nil
    }

    private static func run(_ path: RawPath, seek: String?, shortSide: Int, program: String, timeout: Int) throws(DecodeError) -> RGBImage? {
        // The short side brought down to `shortSide`, never up; -2 keeps the shape with an even size.
        let scale = "scale='if(lt(iw,ih),min(iw,\(shortSide)),-2)':'if(lt(iw,ih),-2,min(ih,\(shortSide)))'"
        // "file:" so that a name with a colon is not read as another protocol (http:, concat:...).
        var arguments = [program, "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "1", "-filter_threads", "1"]
        if let seek { arguments += ["-ss", seek] }
        let all = arguments.map { Array($0.utf8) } + [Array("-i".utf8), Array("file:".utf8) + path.bytes]
            + ["-an", "-sn", "-frames:v", "1", "-vf", scale, "-f", "image2pipe", "-c:v", "ppm", "-"].map { Array($0.utf8) }
        guard let output = try spawn(all, timeout: timeout) else { return nil }
        return parsePPM(output)
    }

    /// ffmpeg's standard output, read until it ends; nil when it gave nothing.
    private static func spawn(_ arguments: [[UInt8]], timeout: Int) throws(DecodeError) -> [UInt8]? {
        var fds: [Int32] = [-1, -1]
        guard systemPipe2(&fds, O_CLOEXEC) == 0 else { throw .unreadable("pipe: " + FileReader.lastError()) }
        defer { close(fds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (POSIX_SPAWN_SETSID, 0x80): the terminal's signals never reach it;
        // and no signal blocked, whatever this worker thread blocks.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK) | 0x80)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, environ)
        close(fds[1])
        guard spawned == 0 else { throw .unreadable("ffmpeg: " + String(cString: strerror(spawned))) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let deadline = TTY.now() + timeout
        var stopped: DecodeError?
        while true {
            if CancelFlag.current?.isCancelled == true { stopped = .cancelled; break }
            if TTY.now() > deadline { stopped = .unreadable("ffmpeg took longer than \(timeout / 1000) s"); break }
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready < 0 && errno != EINTR { stopped = .unreadable("poll: " + FileReader.lastError()); break }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR || errno == EAGAIN { continue }; stopped = .unreadable(FileReader.lastError()); break }
            if count == 0 { break }
            output += chunk[0..<count]
            if output.count > maxOutput { stopped = .tooLarge; break }
        }
        if stopped != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let stopped { throw stopped }
        return output.isEmpty ? nil : output
    }

    /// A binary PPM (P6, 8 bits), as ffmpeg writes it: "P6\nW H\n255\n" and the pixels.
    static func parsePPM(_ data: [UInt8]) -> RGBImage? {
        var fields: [Int] = [], at = 2
        guard data.starts(with: Array("P6".utf8)) else { return nil }
        while fields.count < 3 {
            while at < data.count, data[at] == 0x20 || data[at] == 0x0A || data[at] == 0x0D || data[at] == 0x09 { at += 1 }
            var value = 0, digits = 0
            while at < data.count, (0x30...0x39).contains(data[at]), digits < 6 {
                value = value * 10 + Int(data[at] - 0x30); at += 1; digits += 1
            }
            guard digits > 0 else { return nil }
            fields.append(value)
        }
        at += 1
        let (width, height) = (fields[0], fields[1])
        guard fields[2] == 255, width > 0, height > 0, at + width * height * 3 <= data.count else { return nil }
        return RGBImage(width: width, height: height, pixels: Array(data[at..<(at + width * height * 3)]))
    }
}

/// glibc's pipe2, which Swift's Glibc module leaves out (it is declared under _GNU_SOURCE only):
/// a pipe made close-on-exec at once, so that no program another thread starts meanwhile (the
/// opener, another ffmpeg) inherits its write end and keeps the read from ever ending.
@_silgen_name("pipe2")
private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
