import Foundation
import Glibc
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// HTTP by hand over a blocking socket: request targets exactly as written (`..`, `%2e`, NUL
/// escapes, absolute paths), which a real client would normalise or refuse before sending, and
/// several requests on one connection.
package enum RawHTTP {
    package struct Reply {
        package var status: Int
        /// Header names lowercased.
        package var headers: [String: String]
        package var body: [UInt8]
    }

    /// Sends `text` as is and reads until the server closes the connection: ask with
    /// `Connection: close`. Replies are split by their Content-Length.
    package static func exchange(port: Int, _ text: String) throws -> [Reply] {
        let received = try send(port: port, Array(text.utf8))
        return parse(received)
    }

    /// As `exchange`, the bytes as they came: for bodies not framed by Content-Length.
    package static func exchangeBytes(port: Int, _ text: String) throws -> [UInt8] {
        try send(port: port, Array(text.utf8))
    }

    /// One GET with `Connection: close`.
    package static func get(port: Int, _ target: String, method: String = "GET") throws -> Reply {
        let replies = try exchange(port: port, "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        guard let reply = replies.first else { throw Failure.noReply }
        return reply
    }

    package enum Failure: Error { case socket(Int32), noReply }

    /// A connection left open, for tests of what the server does with idle or slow clients.
    package static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure.socket(errno) }
        return fd
    }

    /// Writes bytes on an open connection; false once the server has closed it.
    @discardableResult
    package static func write(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything the server sends until it closes the connection.
    package static func readAll(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return received }
            received += chunk[..<n]
        }
    }

    /// Whether the server closes the connection within `seconds` (what it sends meanwhile is
    /// read and dropped).
    package static func closes(_ fd: Int32, within seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while Date() < end {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(max(1, end.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return true }
        }
        return false
    }

    private static func send(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connect(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure.socket(errno) }
            sent += n
        }
        return readAll(fd)
    }

    /// Responses one after another: status line, headers, then Content-Length bytes of body
    /// (none for 304 and for responses that announce none).
    private static func parse(_ data: [UInt8]) -> [Reply] {
        var replies: [Reply] = []
        var at = 0
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while at < data.count {
            guard let end = find(separator, in: data, from: at) else { break }
            let lines = String(decoding: data[at..<end], as: UTF8.self).components(separatedBy: "\r\n")
            let statusParts = lines[0].split(separator: " ")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            let status = statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0
            let length = status == 304 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
            let bodyStart = end + separator.count
            let bodyEnd = min(data.count, bodyStart + length)
            replies.append(Reply(status: status, headers: headers, body: Array(data[bodyStart..<bodyEnd])))
            at = bodyEnd
        }
        return replies
    }

    private static func find(_ needle: [UInt8], in data: [UInt8], from start: Int) -> Int? {
        guard data.count >= needle.count else { return nil }
        var i = start
        while i <= data.count - needle.count {
            if data[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
