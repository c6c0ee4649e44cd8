import Glibc
import GalleryFormats
import PhotoGridSystem

/// One HTTP/1.1 connection, on a thread of its own: reads each request (`RequestReader`), has
/// the responder decide the answer, writes it, and goes on while the client keeps the
/// connection open. Pipelined requests are answered one at a time, in order. A thread a
/// connection rather than an event loop: the limits keep connections few (512 in all), the
/// work they wait on is bounded by `WorkGate`, and blocking code reads as it runs.
/// Unchecked: used by the connection's thread alone (made on the accept thread, then handed over).
final class ServedConnection: @unchecked Sendable {
    private let connection: Connection
    private let responder: GalleryResponder
    private let counter: RequestCounter
    private let failures: FailedAttempts
    private let delayMilliseconds: Int
    private let log: Bool
    private let limits: ConnectionLimits
    private var started = 0.0
    /// A batch whose client went: its items being made are waited for after the connection is
    /// closed (`finish`).
    private var unfinished: BatchStream?

    init(_ connection: Connection, responder: GalleryResponder, counter: RequestCounter, failures: FailedAttempts,
         delayMilliseconds: Int, log: Bool, limits: ConnectionLimits) {
        self.connection = connection
        self.responder = responder
        self.counter = counter
        self.failures = failures
        self.delayMilliseconds = delayMilliseconds
        self.log = log
        self.limits = limits
    }

    /// Serves requests until the client closes, a deadline passes, or a response ends the
    /// connection. The caller closes the socket.
    func run() {
        let reader = RequestReader(connection: connection, limits: limits, bodyLimit: Batch.maxRequestBytes)
        while true {
            switch reader.next() {
            case .gone:
                return
            case .refused(let response):
                started = SystemClock().seconds()
                let request = Request(method: "?", target: "?", minorVersion: 1, headers: ["Connection": "close"])
                _ = write(response, for: request)
                connection.linger()
                return
            case .request(let request):
                started = SystemClock().seconds()
                counter.record(Route.path(of: request.target))
                // `--delay-ms`, before any answer.
                if delayMilliseconds > 0 { SystemClock.sleep(milliseconds: delayMilliseconds) }
                let goesOn = request.method == "POST" ? batch(request) : write(slowed(responder.respond(to: request)), for: request)
                guard goesOn else { return }
            }
        }
    }

    /// Waits for what the connection left being made; after it is closed.
    func finish() {
        unfinished?.finish()
        unfinished = nil
    }

    /// A batch: refused as a whole (a wrong token, no batch), or streamed part by part.
    private func batch(_ request: Request) -> Bool {
        if let body = request.body, Batch.Opening(body: body) != nil { counter.recordOpening() }
        switch responder.batch(request) {
        case .refused(let response):
            return write(slowed(response), for: request)
        case .items(let targets, let locations):
            let keepAlive = request.isKeepAlive && request.minorVersion > 0
            let stream = BatchStream(targets: targets, locations: locations, responder: responder, connection: connection,
                                     request: request, counter: counter)
            guard let bytes = stream.run(keepAlive: keepAlive) else {
                unfinished = stream
                return false
            }
            stream.finish()
            if log { ServedConnection.logLine(request, status: 200, bytes: bytes, since: started) }
            return keepAlive
        }
    }

    /// A wrong token waits before it is told so, longer the more it is tried.
    private func slowed(_ response: Response) -> Response {
        if response.status == .unauthorized {
            SystemClock.sleep(milliseconds: Int(failures.delay(for: connection.address)))
        }
        return response
    }

    /// Writes the response; whether the connection goes on to the next request.
    private func write(_ response: Response, for request: Request) -> Bool {
        let keepAlive = request.isKeepAlive
        var headers = response.headers
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if request.minorVersion == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        var bodyBytes: [UInt8] = []
        if case .bytes(let bytes) = response.body { bodyBytes = bytes }
        if headers.first(name: "Content-Length") == nil && response.status != .notModified {
            headers.add(name: "Content-Length", value: String(bodyBytes.count))
        }
        var head = "\(request.version) \(response.status.code) \(response.status.reason)\r\n"
        for field in headers { head += field.name + ": " + field.value + "\r\n" }
        head += "\r\n"
        var sent: Bool
        // A response to HEAD is its head alone, whatever the responder made (a 404's text): a
        // body there would be read as the next response by a client keeping the connection.
        let body = request.method == "HEAD" ? .none : response.body
        switch body {
        case .none:
            sent = connection.send(Array(head.utf8))
        case .bytes:
            sent = connection.send(Array(head.utf8) + bodyBytes)
        case .file(let file, let range):
            // The descriptor is closed here, once the file has gone or the client has: the file
            // is never held whole in memory, nor left open. A file that could not be read to its
            // end cuts the response short, and the connection: the client sees a short body
            // rather than a wrong one.
            guard let fd = file.takeDescriptor() else { return false }
            sent = connection.send(Array(head.utf8)) && connection.send(file: fd, range: range)
            _ = close(fd)
        }
        if sent && log { ServedConnection.logLine(request, status: response.status.code, bytes: response.contentLength, since: started) }
        return sent && keepAlive
    }

    /// `GET /renditions/a.jpg/512.jpg 200 48123 B 12.3 ms`, to stderr.
    static func logLine(_ request: Request, status: Int, bytes: Int, since started: Double) {
        let milliseconds = (SystemClock().seconds() - started) * 1000
        let target = logged(request.target)
        let line = "\(logged(request.method)) \(target) \(status) \(bytes) B \(Double(Int(milliseconds * 10)) / 10) ms\n"
        _ = try? TTY.writeAll(Array(line.utf8), to: 2)
    }

    /// A request's target as the log shows it: control characters as `?` (the reader refuses
    /// them, but a log line is no place to trust that), and the access token, or a guess at it,
    /// as `***`: a log may be read by others.
    static func logged(_ uri: String) -> String {
        let target = String(uri.unicodeScalars.map { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? "?" : Character($0) })
        guard target.hasPrefix("/t/") else { return target }
        let rest = target.dropFirst(3)
        return "/t/***" + (rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "")
    }
}
