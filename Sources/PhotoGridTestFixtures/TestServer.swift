import PhotoGridTestSupport
import PhotoGridCore
import Foundation
import Glibc
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// A small HTTP/1.1 server of the suite's own on 127.0.0.1, for fault injection: each request is
/// answered by a handler that can respond normally, slowly, with a truncated body, by resetting
/// the connection, or not at all. It counts requests per path.
package final class TestServer: @unchecked Sendable {
    package struct Request { package var method: String; package var path: String; package var headers: [String: String]; package var body: [UInt8] = [] }

    package indirect enum Behavior {
        case respond(status: Int, headers: [(String, String)], body: [UInt8])
        /// Waits, then responds.
        case slow(milliseconds: Int, Behavior)
        /// Says `Content-Length: declared`, sends `body` (shorter), then closes.
        case truncated(declared: Int, body: [UInt8])
        /// Closes the connection at once, with a TCP reset.
        case reset
        /// A chunked body that never ends (until the client goes away).
        case endless
        /// Says `Content-Length: declared` and sends `body`, which is longer.
        case longerThanDeclared(declared: Int, body: [UInt8])
    }

    package let port: Int
    private let listener: Int32
    private let counts = Locked<[String: Int]>([:])
    private let handler: @Sendable (Request) -> Behavior
    private let stopped = Locked(false)

    package init(handler: @escaping @Sendable (Request) -> Behavior) throws {
        try Subprocess.refuseInFastRun("a test server")
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    package var url: String { "http://127.0.0.1:\(port)/" }

    package func count(_ path: String) -> Int { counts.withLock { $0[path] ?? 0 } }
    package var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    package func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    /// Requests on one connection, kept alive until the client or a behaviour closes it.
    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        while true {
            guard let request = readRequest(fd, buffer: &buffer) else { close(fd); return }
            counts.withLock { $0[request.path, default: 0] += 1 }
            if !perform(handler(request), on: fd, head: request.method == "HEAD") { return }
        }
    }

    /// Whether the connection stays open.
    private func perform(_ behavior: Behavior, on fd: Int32, head: Bool) -> Bool {
        switch behavior {
        case .respond(let status, let headers, let body):
            var text = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.count)\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            send(fd, Array((text + "\r\n").utf8) + (head ? [] : body))
            return true
        case .slow(let milliseconds, let then):
            usleep(UInt32(milliseconds * 1000))
            return perform(then, on: fd, head: head)
        case .truncated(let declared, let body):
            send(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: \(declared)\r\n\r\n".utf8) + body)
            close(fd)
            return false
        case .endless:
            send(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 0x10000) + Array("\r\n".utf8)
            while !stopped.withLock({ $0 }) {
                var sent = 0
                while sent < chunk.count {
                    let n = chunk.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { close(fd); return false }
                    sent += n
                }
            }
            close(fd)
            return false
        case .longerThanDeclared(let declared, let body):
            send(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: \(declared)\r\n\r\n".utf8) + body)
            return true
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(fd)
            return false
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    private func readRequest(_ fd: Int32, buffer: inout [UInt8]) -> Request? {
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            if let range = buffer.firstRange(of: end) {
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<range.upperBound)
                let lines = head.components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ")
                guard parts.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let target = String(parts[1])
                let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
                // A body of the length declared (a batch's list): read whole.
                let length = headers["content-length"].flatMap { Int($0) } ?? 0
                while buffer.count < length {
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                    if n <= 0 { return nil }
                    buffer += chunk[0..<n]
                }
                let body = Array(buffer.prefix(length))
                buffer.removeFirst(length)
                return Request(method: String(parts[0]), path: path, headers: headers, body: body)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }
}
