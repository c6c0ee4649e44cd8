import Glibc
import GalleryFormats

/// For the fuzz target `http` (Sources/PhotoGridFuzzing): `bytes` as all that one client sends on
/// a connection, read request by request as `ServedConnection` reads them, until the stream ends
/// or a request is refused. Each request handed on must keep the reader's promises, and its
/// target and headers go through the parsers the responder uses next; a broken promise stops
/// the program, for the fuzzer to report.
package enum RequestFuzzing {
    package static func read(_ bytes: [UInt8]) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0,
              let client = Connection(fd: ends[1], address: "fuzz", tls: nil),
              let connection = Connection(fd: ends[0], address: "fuzz", tls: nil) else { return }
        defer {
            client.close()
            connection.close()
        }
        // Written whole, then the writing end shut: a socket pair holds more than the fuzzer's
        // inputs (64 KB at most), and the reader meets the end of the stream instead of a deadline.
        client.send(Array(bytes.prefix(64 * 1024)))
        shutdown(ends[1], Int32(SHUT_WR))
        var limits = ConnectionLimits()
        limits.idleSeconds = 1
        limits.requestSeconds = 1
        let reader = RequestReader(connection: connection, limits: limits, bodyLimit: Batch.maxRequestBytes)
        while case .request(let request) = reader.next() {
            check(request)
        }
    }

    private static func check(_ request: Request) {
        precondition(!request.method.isEmpty && request.method.utf8.allSatisfy(RequestHead.isTokenByte), "method \(request.method)")
        precondition(!request.target.isEmpty && request.target.utf8.allSatisfy { $0 > 32 && $0 != 127 }, "target")
        precondition(request.minorVersion == 0 || request.minorVersion == 1)
        for field in request.headers {
            precondition(!field.name.isEmpty && field.name.utf8.allSatisfy(RequestHead.isTokenByte), "header name")
            precondition(!field.value.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 }, "header value")
            precondition(field.value.first != " " && field.value.last != " ", "header value's spaces")
        }
        if let body = request.body {
            precondition(body.count <= Batch.maxRequestBytes && (request.method == "POST" || body.isEmpty), "body")
        } else {
            precondition(request.method == "POST", "a dropped body")
        }
        // What the responder reads next.
        _ = Route(target: request.target)
        _ = request.isKeepAlive
        if let range = request.headers.first(name: "Range") { _ = ByteRange(header: range)?.resolve(size: 1 << 20) }
        if let tags = request.headers.first(name: "If-None-Match") { _ = Validators.noneMatch(tags, matches: "\"r256-0f783e5a2abc5add\"") }
        if let body = request.body, request.method == "POST" {
            _ = Batch.Opening(body: body)
            _ = Batch.targets(in: body)
        }
    }
}
