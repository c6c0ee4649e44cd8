import GalleryFormats
import PhotoGridLoading
import PhotoGridSystem

/// One batch response: a few items made at a time by threads of the batch's own, started in the
/// order asked (the client lists the screen first), each written as its part the moment it is
/// ready, then the end. When the client goes (it moved on and cancelled), no further item is
/// started: at most `concurrency` renditions are made for nothing.
final class BatchStream: @unchecked Sendable {
    /// Items being made at once: enough to keep every core busy (the work gate lets one a core
    /// decode), few enough that a cancelled batch wastes little.
    static let concurrency = 2 * max(2, WorkerThreads.cores)

    private let targets: [String]
    private let locations: [String]
    private let responder: GalleryResponder
    private let connection: Connection
    private let request: Request
    private let counter: RequestCounter
    /// The makers' state, under the condition's lock: the next item to start, those handed out
    /// and not yet taken by a maker, how many are under way, the parts made and not yet
    /// written, whether the batch is over.
    private let condition = Condition()
    private var next = 0
    private var waiting: [Int] = []
    private var running = 0
    private var made: [(index: Int, response: Response)] = []
    private var stopped = false
    private var makers: [JoinableThread] = []

    init(targets: [String], locations: [String], responder: GalleryResponder, connection: Connection, request: Request,
         counter: RequestCounter) {
        self.targets = targets
        self.locations = locations
        self.responder = responder
        self.connection = connection
        self.request = request
        self.counter = counter
    }

    /// Writes the head, the parts as they are made, and the end; the body's length, or nil when
    /// the client went first (the connection is to be closed).
    func run(keepAlive: Bool) -> Int? {
        var head = "\(request.version) 200 OK\r\nContent-Type: \(Batch.contentType)\r\nCache-Control: no-store\r\n"
        // HTTP/1.1 streams it chunked; HTTP/1.0 has no chunks, so the body ends with the connection.
        let chunked = request.minorVersion > 0
        if chunked { head += "Transfer-Encoding: chunked\r\n" }
        if !keepAlive || !chunked { head += "Connection: close\r\n" }
        guard connection.send(Array((head + "\r\n").utf8)) else { return nil }
        makers = (0..<min(BatchStream.concurrency, targets.count)).compactMap { _ in JoinableThread { self.make() } }
        if makers.isEmpty && !targets.isEmpty { return nil }
        var bytes = 0, written = 0
        while written < targets.count {
            // Items are started here, on the connection's thread, and only while the client is
            // there: one that went is not made more for.
            guard !connection.clientGone else { return nil }
            startItems()
            guard let part = nextMade() else { return nil }
            let body = self.part(part.response, as: part.index)
            bytes += body.count
            written += 1
            guard connection.send(chunked ? BatchStream.chunk(body) : body) else { return nil }
        }
        bytes += Batch.end.count
        guard connection.send(chunked ? BatchStream.chunk(Batch.end) + Array("0\r\n\r\n".utf8) : Batch.end) else { return nil }
        return bytes
    }

    /// Hands the makers items until `concurrency` are under way.
    private func startItems() {
        condition.lock()
        while running < BatchStream.concurrency && next < targets.count {
            counter.recordItem(Route.path(of: targets[next]))
            waiting.append(next)
            next += 1
            running += 1
        }
        condition.broadcast()
        condition.unlock()
    }

    /// A maker's loop: the next item handed out, until the batch stops.
    private func make() {
        while true {
            condition.lock()
            while waiting.isEmpty && !stopped { condition.wait() }
            guard !stopped else { return condition.unlock() }
            let index = waiting.removeFirst()
            condition.unlock()
            let response = responder.batchPart(targets[index])
            condition.lock()
            made.append((index, response))
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next part made, waiting for one; nil once the client has gone. The client is looked
    /// at every 100 ms meanwhile: a batch held up by a slow rendition learns soon that nobody
    /// waits for it, and its connection is given up.
    private func nextMade() -> (index: Int, response: Response)? {
        condition.lock()
        defer { condition.unlock() }
        while made.isEmpty {
            if !condition.wait(milliseconds: 100) {
                condition.unlock()
                let gone = connection.clientGone
                condition.lock()
                if gone { return nil }
            }
        }
        running -= 1
        return made.removeFirst()
    }

    /// Starts no further item and waits for those being made. After `run`, and, when the client
    /// went, after its connection is closed: nobody waits for those renditions, but they finish
    /// (and go to the disk cache) before the server stops.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        makers.forEach { $0.join() }
    }

    /// One item as its part: its head (status, headers, which rendition it is) and its bytes.
    private func part(_ response: Response, as index: Int) -> [UInt8] {
        var body: [UInt8] = []
        var status = response.status.code
        switch response.body {
        case .none: break
        case .bytes(let bytes): body = bytes
        case .file: status = 500                // renditions are bytes; a file is never a part
        }
        // Which rendition the part is, as its own response would have said had it been
        // redirected: an opening batch's client learns it here (`Batch.Opening`).
        let headers = response.headers.filter { !Headers.same($0.name, "Content-Length") }
            .map { (name: $0.name, value: FetchError.printable($0.value)) } + [(name: "Content-Location", value: locations[index])]
        return Batch.partHead(index: index, status: status, length: body.count, headers: headers) + body
    }

    /// `bytes` as one chunk of a chunked body.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10]
    }
}
