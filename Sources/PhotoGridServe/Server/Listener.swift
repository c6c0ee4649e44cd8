import Glibc
import PhotoGridSystem

/// The listening socket, bound by name through `getaddrinfo` (so that "localhost", "::1",
/// "0.0.0.0" and "::" all work), and the connections it accepts, one at a time, on the
/// server's accept thread. `wake` ends a wait in `accept` from another thread.
final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int
    /// A pipe whose write end `wake` writes to: what `accept` watches beside the socket.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Listens on `host` and `port` (0: one the kernel picks); the reason in words when it cannot.
    init(host: String, port: Int) throws(Failure) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &found)
        guard looked == 0, let first = found else {
            throw Failure(reason: "no such address on this machine (\(String(cString: gai_strerror(looked))))")
        }
        defer { freeaddrinfo(found) }
        let socketFD = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw Failure(errno: errno) }
        // A restarted server can take its port back at once, despite connections of the last one
        // in TIME_WAIT; two servers on one port still fail on Linux.
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socketFD, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0, listen(socketFD, 256) == 0 else {
            let error = errno
            Glibc.close(socketFD)
            throw Failure(errno: error)
        }
        let ends: (read: FileDescriptor, write: FileDescriptor)
        do throws(SystemError) {
            ends = try FileDescriptor.pipe(nonBlocking: true)
        } catch {
            Glibc.close(socketFD)
            throw Failure(reason: "no pipe to stop by (\(error))")
        }
        // Non-blocking, so that a connection gone between poll and accept (EAGAIN) sends the
        // loop back to poll, where `wake` can reach it. Accepted sockets do not inherit it.
        _ = fcntl(socketFD, F_SETFL, fcntl(socketFD, F_GETFL) | O_NONBLOCK)
        fd = socketFD
        (wakeRead, wakeWrite) = (ends.read.raw, ends.write.raw)
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socketFD, $0, &length) }
        }
        self.port = Listener.describe(address).port
    }

    /// The next connection and its client's address; nil once woken (the server stopping).
    func accept() -> (fd: Int32, address: String)? {
        while true {
            var watched = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&watched, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if watched[1].revents != 0 || ready < 0 { return nil }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
            }
            if accepted >= 0 {
                // Close-on-exec, as every descriptor here: `serve` starts no program, but the
                // process it runs in might.
                _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
                return (accepted, Listener.describe(address).host)
            }
            // Out of descriptors: the connection waits in the backlog until one is closed.
            if errno == EMFILE || errno == ENFILE { usleep(20_000) }
        }
    }

    /// Ends the wait in `accept`, now and for good.
    func wake() { _ = write(wakeWrite, "x", 1) }

    func close() {
        Glibc.close(fd)
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    /// An address as text and its port.
    static func describe(_ storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        let family = storage.ss_family
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return (Listener.text(text), Int(UInt16(bigEndian: v6.pointee.sin6_port)))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var address = v4.pointee.sin_addr
                inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                return (Listener.text(text), Int(UInt16(bigEndian: v4.pointee.sin_port)))
            }
        }
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why listening failed, in words, with a hint for the common reasons.
    struct Failure: Error {
        let reason: String

        init(reason: String) { self.reason = reason }

        init(errno code: Int32) {
            switch code {
            case EADDRINUSE: reason = "the port is in use (another server? choose another port)"
            case EACCES: reason = "permission denied (ports below 1024 need privileges)"
            case EADDRNOTAVAIL: reason = "no such address on this machine"
            default: reason = String(cString: strerror(code))
            }
        }
    }
}
