import Glibc
import PhotoGridSystem

/// One accepted socket, read and written by its own thread: bytes in under a deadline, bytes
/// and files out, through TLS when the server has it. Blocking calls all, each able to end
/// early: `poll` bounds the reads, and `GalleryServer.stop` shuts the socket down, which wakes
/// any call waiting on it.
final class Connection: @unchecked Sendable {
    let fd: Int32
    /// The client's address as text (`127.0.0.1`, `::1`): what the limits count by.
    let address: String
    private let tls: TLSSession?
    /// Plain bytes that came and are not yet taken, from `start` on.
    private(set) var buffer: [UInt8] = []
    private(set) var start = 0
    private var raw = [UInt8](repeating: 0, count: 64 * 1024)

    /// The TLS goodbye was sent (by `linger`, then not again by `close`).
    private var saidGoodbye = false

    /// Nil when TLS was asked for and OpenSSL could not make a session: the connection is not
    /// served at all, never in plain bytes on a TLS port. The caller still owns `fd` then.
    init?(fd: Int32, address: String, tls: TLSContext?) {
        if let tls {
            guard let session = TLSSession(tls) else { return nil }
            self.tls = session
        } else {
            self.tls = nil
        }
        self.fd = fd
        self.address = address
    }

    /// Plain bytes waiting, not yet taken.
    var waiting: Int { buffer.count - start }

    /// Takes `count` of the waiting bytes.
    func take(_ count: Int) -> ArraySlice<UInt8> {
        let taken = buffer[start..<(start + count)]
        start += count
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return taken
    }

    enum Arrival { case bytes, closed, timedOut }

    /// Waits until at least one more plain byte has come, or `deadline` (`SystemClock.now()`,
    /// milliseconds) passes, or the client closes. TLS handshake records count as nothing come.
    func receive(until deadline: Int) -> Arrival {
        while true {
            guard let count = receiveRaw(until: deadline) else { return .timedOut }
            guard count > 0 else { return .closed }
            // What was taken goes once it is 64 KB: `take` empties the buffer when all is taken,
            // but a client pipelining without pause never lets that happen.
            if start >= 64 * 1024 {
                buffer.removeFirst(start)
                start = 0
            }
            guard let tls else {
                buffer += raw[0..<count]
                return .bytes
            }
            let plain = raw.withUnsafeBytes { tls.receive(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            guard sendRaw(tls.takeOutgoing()), !tls.failed else { return .closed }
            if !plain.isEmpty {
                buffer += plain
                return .bytes
            }
        }
    }

    /// Writes all of `bytes`; false when the client is gone (or the server stopping).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        guard let tls else { return sendRaw(bytes) }
        let sealed = bytes.withUnsafeBytes { tls.send($0) }
        return sealed && sendRaw(tls.takeOutgoing())
    }

    /// Writes `range` of the open file `file`: by `sendfile`, the kernel copying it from the page
    /// cache, or read a chunk at a time and encrypted under TLS. False when the client is gone
    /// or the file could not be read to the end (the response is then cut short).
    func send(file: Int32, range: Range<Int>) -> Bool {
        var offset = off_t(range.lowerBound)
        let end = off_t(range.upperBound)
        if tls == nil {
            while offset < end {
                let sent = sendfile(fd, file, &offset, Int(min(end - offset, 1 << 30)))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
            }
            return true
        }
        var chunk = [UInt8](repeating: 0, count: 128 * 1024)
        while offset < end {
            let want = Int(min(end - offset, off_t(chunk.count)))
            let read = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, want, offset) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0, send(Array(chunk[0..<read])) else { return false }
            offset += off_t(read)
        }
        return true
    }

    /// Whether the client has closed its end or reset the connection, asked without waiting: a
    /// batch's client that moved on, while the batch's items are being made.
    var clientGone: Bool {
        var watched = pollfd(fd: fd, events: Connection.readHangUp, revents: 0)
        guard poll(&watched, 1, 0) > 0 else { return false }
        return watched.revents & (Connection.readHangUp | Int16(POLLHUP | POLLERR)) != 0
    }

    /// After a refusal: stops sending, then reads and drops what the client still sends, for a
    /// second or a megabyte at most, before the socket is closed. Closed at once with bytes
    /// unread, the socket would reset the connection, and the client could lose the answer
    /// saying why (what Apache and nginx call a lingering close).
    func linger() {
        sayGoodbye()
        shutdown(fd, Int32(SHUT_WR))
        let deadline = SystemClock().now() + 1000
        var dropped = 0
        while dropped < 1 << 20, let count = receiveRaw(until: deadline), count > 0 {
            dropped += count
        }
    }

    /// POLLRDHUP, Linux's "the peer closed its end", which poll.h declares only under
    /// _GNU_SOURCE (Swift's Glibc module is built without it).
    static let readHangUp: Int16 = 0x2000

    /// Says goodbye in TLS when it can, then closes. Once only.
    func close() {
        sayGoodbye()
        _ = Glibc.close(fd)
    }

    /// TLS's close_notify, once, unless the session failed.
    private func sayGoodbye() {
        guard let tls, !tls.failed, !saidGoodbye else { return }
        saidGoodbye = true
        tls.shutdown()
        _ = sendRaw(tls.takeOutgoing())
    }

    /// Bytes off the socket into `raw`, waiting for them until `deadline`: how many (0 when the
    /// client closed or the socket failed), or nil when the deadline passed first.
    private func receiveRaw(until deadline: Int) -> Int? {
        while true {
            let left = deadline - SystemClock().now()
            guard left > 0 else { return nil }
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, Int32(min(left, 60_000)))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return 0 }
            if ready == 0 { continue }
            let count = raw.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return max(0, count)
        }
    }

    private func sendRaw(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
