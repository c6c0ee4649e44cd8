import PhotoGridSystem

/// Reads one request at a time off a connection, as HTTP/1.1 (RFC 9112) says, and no more of
/// it than a request may be: a head of at most 80 KB (what llhttp, and so NIO before this,
/// allowed), a body kept only for a POST and only up to `bodyLimit`. The connection's deadlines
/// run here: `idleSeconds` for a request's first bytes to come, then `requestSeconds` for the
/// whole request (a client sending a byte a second is dropped). Pipelined requests wait in the
/// connection's buffer for their turn.
struct RequestReader {
    static let maxHeadBytes = 80 * 1024
    static let headTooLarge = Response.text(.headTooLarge, "the request's head is longer than \(maxHeadBytes / 1024) KB")

    let connection: Connection
    let limits: ConnectionLimits
    let bodyLimit: Int

    /// What the next read comes to.
    enum Outcome {
        case request(Request)
        /// The client closed, or a deadline passed: the connection is closed without a word.
        case gone
        /// Not HTTP as the server takes it: this answer, then the connection closed.
        case refused(Response)
    }

    func next() -> Outcome {
        let clock = SystemClock()
        if connection.waiting == 0 {
            guard connection.receive(until: clock.now() + Int(limits.idleSeconds) * 1000) == .bytes else { return .gone }
        }
        let deadline = clock.now() + Int(limits.requestSeconds) * 1000
        // Empty lines before a request line are skipped (RFC 9112 §2.2).
        while true {
            while connection.waiting > 0, [13, 10].contains(connection.buffer[connection.start]) { _ = connection.take(1) }
            if connection.waiting > 0 { break }
            guard connection.receive(until: deadline) == .bytes else { return .gone }
        }
        var scanned = 0
        let headEnd: Int
        while true {
            if let end = RequestReader.endOfHead(connection.buffer, from: connection.start + max(0, scanned - 3)) {
                headEnd = end
                break
            }
            scanned = connection.waiting
            // Not waited out: a TLS greeting to the plain port, or any bytes that cannot begin
            // a request, are answered at once (a client then says "not HTTPS", not "timed out").
            guard RequestHead.beginsWell(connection.buffer[connection.start...]) else {
                return .refused(.text(.badRequest, "bad request line"))
            }
            if scanned > RequestReader.maxHeadBytes { return .refused(RequestReader.headTooLarge) }
            guard connection.receive(until: deadline) == .bytes else { return .gone }
        }
        let headLength = headEnd - connection.start
        guard headLength <= RequestReader.maxHeadBytes else { return .refused(RequestReader.headTooLarge) }
        let head = Array(connection.take(headLength))
        var request: Request
        switch RequestHead.parse(head) {
        case .failure(let refusal): return .refused(refusal.response)
        case .success(let parsed): request = parsed
        }
        switch readBody(of: &request, until: deadline) {
        case .gone: return .gone
        case .refused(let refusal): return .refused(refusal)
        case .read: return .request(request)
        }
    }

    /// What reading a body came to: read (kept or dropped), the client gone or the deadline
    /// passed, or a body framed wrongly.
    private enum BodyRead { case read, gone, refused(Response) }

    /// Reads the body the head announces.
    private func readBody(of request: inout Request, until deadline: Int) -> BodyRead {
        let isPost = request.method == "POST"
        var kept: [UInt8]? = []
        func keep(_ bytes: ArraySlice<UInt8>) {
            guard isPost, let sofar = kept else { return }
            kept = sofar.count + bytes.count <= bodyLimit ? sofar + bytes : nil
        }
        defer { request.body = isPost ? kept : [] }
        let codings = request.headers.values(name: "Transfer-Encoding")
        let lengths = request.headers.values(name: "Content-Length")
        if !codings.isEmpty {
            // A length beside chunks, or chunks in HTTP/1.0, is how requests are smuggled past
            // proxies: refused, as RFC 9112 §6.1 allows.
            guard lengths.isEmpty, request.minorVersion == 1 else { return .refused(.text(.badRequest, "bad request framing")) }
            let last = codings.joined(separator: ",").split(separator: ",").last.map { $0.trimmingSpaces.lowercased() }
            guard last == "chunked" else { return .refused(.text(.notImplemented, "only chunked transfer coding is understood")) }
            continueIfAsked(request)
            return readChunks(until: deadline, keep)
        }
        guard !lengths.isEmpty else { return .read }
        let values = Set(lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingSpaces) } })
        guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }),
              let length = Int(text) else {
            return .refused(.text(.badRequest, "bad Content-Length"))
        }
        if length > 0 { continueIfAsked(request) }
        return pass(length, until: deadline, to: keep) ? .read : .gone
    }

    /// Hands the next `count` bytes to `keep` as they come; false when the client went or the
    /// deadline passed first.
    private func pass(_ count: Int, until deadline: Int, to keep: (ArraySlice<UInt8>) -> Void) -> Bool {
        var left = count
        while left > 0 {
            if connection.waiting == 0, connection.receive(until: deadline) != .bytes { return false }
            let taken = min(left, connection.waiting)
            keep(connection.take(taken))
            left -= taken
        }
        return true
    }

    /// A chunked body (RFC 9112 §7.1): each chunk's size in hex, its bytes, then trailer fields,
    /// which are read and dropped.
    private func readChunks(until deadline: Int, _ keep: (ArraySlice<UInt8>) -> Void) -> BodyRead {
        let bad = BodyRead.refused(.text(.badRequest, "bad chunked body"))
        while true {
            guard let line = readLine(until: deadline) else { return .gone }
            let sizeText = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 32 && $0 != 9 }
            guard !sizeText.isEmpty, sizeText.count <= 15,
                  let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16) else { return bad }
            if size == 0 { break }
            guard pass(size, until: deadline, to: keep), let end = readLine(until: deadline) else { return .gone }
            guard end.isEmpty else { return bad }
        }
        var trailers = 0
        while true {
            guard let line = readLine(until: deadline) else { return .gone }
            if line.isEmpty { return .read }
            trailers += line.count
            guard trailers <= RequestReader.maxHeadBytes else { return bad }
        }
    }

    /// One line ending in CRLF (or LF), without it; nil when the client went, the deadline
    /// passed, or the line is longer than a head may be.
    private func readLine(until deadline: Int) -> [UInt8]? {
        while true {
            let buffer = connection.buffer, start = connection.start
            if let newline = buffer[start...].firstIndex(of: 10) {
                var line = Array(connection.take(newline + 1 - start).dropLast())
                if line.last == 13 { line.removeLast() }
                return line
            }
            guard connection.waiting <= RequestReader.maxHeadBytes, connection.receive(until: deadline) == .bytes else { return nil }
        }
    }

    /// `100 Continue` for a client that waits for it before sending its body (curl does for
    /// large POSTs, for a second, then sends anyway).
    private func continueIfAsked(_ request: Request) {
        guard request.minorVersion == 1, request.headers.contains(token: "100-continue", in: "Expect") else { return }
        connection.send(Array("HTTP/1.1 \(Status.continue.code) \(Status.continue.reason)\r\n\r\n".utf8))
    }

    /// Where the blank line ending a head ends, searching from `from`.
    static func endOfHead(_ bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var i = max(0, from)
        while i + 3 < bytes.count {
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i + 4 }
            i += 1
        }
        return nil
    }
}
