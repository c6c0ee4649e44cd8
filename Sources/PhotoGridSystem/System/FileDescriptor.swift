import CGlibc
import Glibc

/// An open file by its descriptor: how the rest of photogrid opens, reads, writes and closes
/// files, pipes and /proc files without calling libc itself (swift-system's `FileDescriptor`
/// does this job for packages that take it; the core keeps to libc and its own C targets).
/// Every call retries on EINTR and throws `SystemError` with the call's errno. A descriptor is
/// not closed by itself: `close()` it once, or use `closing`.
package struct FileDescriptor: Sendable, Hashable {
    package let raw: Int32

    package init(raw: Int32) { self.raw = raw }

    package enum Access: Sendable { case read, write, readWrite }

    package struct Options: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// Make the file if it is not there (with `permissions`).
        package static let create = Options(rawValue: O_CREAT)
        /// With `create`: fail with "exists" rather than open a file that is there.
        package static let exclusive = Options(rawValue: O_EXCL)
        /// Fail (ELOOP) rather than follow a link at the path's end.
        package static let noFollow = Options(rawValue: O_NOFOLLOW)
        /// A FIFO or device that slipped in must not block a worker.
        package static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// Nor may a terminal become this process's controlling one.
        package static let noControllingTerminal = Options(rawValue: O_NOCTTY)
        /// Empty the file (a report written anew).
        package static let truncate = Options(rawValue: O_TRUNC)
        /// What opening something that may be anything takes: `nonBlocking` and `noControllingTerminal`.
        package static let untrusted: Options = [.nonBlocking, .noControllingTerminal]
    }

    /// open(2), always close-on-exec: no child (an opener, ffmpeg) inherits photogrid's files.
    package static func open(_ path: RawPath, _ access: Access, options: Options = [],
                             permissions: UInt32 = 0o600) throws(SystemError) -> FileDescriptor {
        let mode: Int32
        switch access {
        case .read: mode = O_RDONLY
        case .write: mode = O_WRONLY
        case .readWrite: mode = O_RDWR
        }
        while true {
            let fd = path.withCString { Glibc.open($0, mode | options.rawValue | O_CLOEXEC, mode_t(permissions)) }
            if fd >= 0 { return FileDescriptor(raw: fd) }
            if errno != EINTR { throw .last }
        }
    }

    /// A pipe, close-on-exec at both ends, and non-blocking when asked (a wake-up pipe whose
    /// reader drains it and whose writer must never wait).
    package static func pipe(nonBlocking: Bool) throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec from the start: a program another thread starts meanwhile (the opener,
        // ffmpeg) must not inherit an end and keep a read from ever ending.
        guard pg_pipe2(&ends, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)) == 0 else { throw .last }
        return (FileDescriptor(raw: ends[0]), FileDescriptor(raw: ends[1]))
    }

    /// close(2). Not retried on EINTR: Linux has closed the descriptor whatever it returns. A
    /// failure can be a delayed write error (NFS, a quota), which a writer must not ignore.
    package func close() throws(SystemError) {
        if Glibc.close(raw) != 0 && errno != EINTR { throw .last }
    }

    /// `body` with this descriptor, closed afterwards whatever happens.
    package func closing<T, E: Error>(_ body: (FileDescriptor) throws(E) -> T) throws(E) -> T {
        defer { Glibc.close(raw) }
        return try body(self)
    }

    /// The standard descriptors.
    package static let standardInput = FileDescriptor(raw: 0)
    package static let standardOutput = FileDescriptor(raw: 1)

    /// dup(2), close-on-exec: a second descriptor for the same open file.
    package func duplicate() throws(SystemError) -> FileDescriptor {
        let fd = fcntl(raw, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { throw .last }
        return FileDescriptor(raw: fd)
    }

    /// dup2(2): `target` becomes this open file too (stdout moved to the terminal, say).
    package func duplicate(as target: FileDescriptor) throws(SystemError) {
        while dup2(raw, target.raw) < 0 {
            if errno != EINTR { throw .last }
        }
    }

    /// fstat(2).
    package func status() throws(SystemError) -> FileStatus {
        var info = stat()
        guard fstat(raw, &info) == 0 else { throw .last }
        return FileStatus(info)
    }

    /// One read(2), or pread(2) at `offset`: how many bytes came, 0 at the end. A non-blocking
    /// descriptor with nothing to read throws `wouldBlock`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let n = offset.map { Glibc.pread(raw, base, buffer.count, off_t($0)) } ?? Glibc.read(raw, base, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw .last }
        }
    }

    /// Fills `buffer` from `offset` by as many preads as it takes: how many bytes came, fewer
    /// than asked only at the end of the file (one that shrank since it was looked at included).
    package func readFully(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        var filled = 0
        while filled < buffer.count {
            do throws(SystemError) {
                let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: offset + filled)
                if n == 0 { break }
                filled += n
            } catch {
                // EAGAIN from a file opened non-blocking: asked again, never a failure.
                if error.wouldBlock { continue }
                throw error
            }
        }
        return filled
    }

    /// Up to `count` bytes from `offset` (fewer only at the end of the file), into a new array.
    /// Uninitialised space first: zeroing megabytes only to overwrite them costs a millisecond a photo.
    package func read(upTo count: Int, at offset: Int = 0) throws(SystemError) -> [UInt8] {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(0, count)) { buffer, filled in
            do throws(SystemError) { filled = try readFully(into: UnsafeMutableRawBufferPointer(buffer), at: offset) } catch {
                filled = 0
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Everything until the end, at most `limit` bytes, by plain reads: for /proc and /sys files,
    /// which report a size of zero, and for pipes.
    package func readToEnd(limit: Int) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let result = chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try read(into: buffer) } }
            let n = try result.get()
            if n == 0 { break }
            bytes += chunk[0..<min(n, limit - bytes.count)]
        }
        return bytes
    }

    /// A small /proc or /sys file whole, as text; nil where it cannot be read. These files are a
    /// few hundred bytes; the cap only guards against pointing at a huge file.
    package static func kernelFile(_ path: String) -> String? {
        guard let file = try? FileDescriptor.open(RawPath(path), .read) else { return nil }
        return file.closing { (try? $0.readToEnd(limit: 65_536)).map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Reads and drops whatever a non-blocking descriptor holds now (a wake-up pipe).
    package func drain() {
        var chunk = [UInt8](repeating: 0, count: 64)
        while chunk.withUnsafeMutableBytes({ buffer in (try? read(into: buffer)) ?? 0 }) > 0 {}
    }

    /// All of `bytes`, through short writes.
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(raw, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            if n == 0 { throw SystemError(code: EIO) }
            done += n
        }
    }

    /// One byte, best effort, never waiting: wakes whoever polls the other end of a pipe.
    package func poke() {
        var byte: UInt8 = 1
        _ = Glibc.write(raw, &byte, 1)
    }

    /// fsync(2): the bytes on the disk before a rename makes them the file.
    package func sync() throws(SystemError) {
        guard fsync(raw) == 0 else { throw .last }
    }

    /// fchmod(2): the permission bits (0o7777).
    package func setPermissions(_ permissions: UInt32) throws(SystemError) {
        guard fchmod(raw, mode_t(permissions)) == 0 else { throw .last }
    }

    /// futimens(2): the mtime set (ns since 1970), the access time left as it is.
    package func setModified(nanoseconds: Int64) throws(SystemError) {
        // UTIME_OMIT, (1 << 30) - 2 in Linux's stat.h, which Swift's Glibc module leaves out.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2),
                     timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))]
        guard futimens(raw, &times) == 0 else { throw .last }
    }

    /// futimens(2) to now: the file's mtime as its "last used" time.
    package func touch() { _ = futimens(raw, nil) }

    /// The path the kernel has for the open file (/proc/self/fd); nil without /proc.
    package var kernelPath: RawPath? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { out in
            out.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(raw)", $0.baseAddress!, $0.count - 1) }
        }
        guard length > 0, length < buffer.count - 1 else { return nil }
        return RawPath(Array(buffer[..<length]))
    }
}

/// poll(2) over a few descriptors: which of them are ready, after at most `milliseconds` (-1: no
/// limit). The event loop's and the memory watcher's only way to sleep until something happens.
package enum Poll {
    package struct Events: OptionSet, Sendable {
        package let rawValue: Int16
        package init(rawValue: Int16) { self.rawValue = rawValue }
        package static let readable = Events(rawValue: Int16(POLLIN))
        /// A PSI trigger fired.
        package static let urgent = Events(rawValue: Int16(POLLPRI))
        /// The other end is gone, or the descriptor is not (or no longer) valid.
        package static let failed = Events(rawValue: Int16(POLLERR | POLLHUP | POLLNVAL))
    }

    /// The events seen on each descriptor, in order; nil when poll failed (EINTR included: the
    /// caller looks again).
    package static func wait(_ watched: [(FileDescriptor, Events)], milliseconds: Int32) -> [Events]? {
        var fds = watched.map { pollfd(fd: $0.0.raw, events: $0.1.rawValue, revents: 0) }
        guard poll(&fds, nfds_t(fds.count), milliseconds) >= 0 else { return nil }
        return fds.map { Events(rawValue: $0.revents) }
    }
}
