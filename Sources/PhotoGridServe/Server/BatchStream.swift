import NIOCore
import NIOHTTP1
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// One batch response on its connection's event loop: a few items made at a time, in the order
/// asked (the client lists the screen first), each written as its part the moment it is ready,
/// then the end. When the client goes (it moved on and cancelled), no further item is started:
/// at most `concurrency` renditions are made for nothing.
final class BatchStream {
    /// Items being made at once: enough to keep every worker of the pool busy, few enough that
    /// a cancelled batch wastes little.
    static let concurrency = 2 * max(2, WorkerThreads.cores)

    private let targets: [String]
    private let locations: [String]
    private let responder: GalleryResponder
    private let context: ChannelHandlerContext
    private let request: HTTPRequestHead
    private let counter: RequestCounter
    private let finished: (_ bytes: Int) -> Void
    private var next = 0
    private var running = 0
    private var written = 0
    private var bytes = 0

    /// `finished` runs once the end is written, with the body's length.
    init(targets: [String], locations: [String], responder: GalleryResponder, context: ChannelHandlerContext, request: HTTPRequestHead,
         counter: RequestCounter, finished: @escaping (_ bytes: Int) -> Void) {
        self.counter = counter
        self.targets = targets
        self.locations = locations
        self.responder = responder
        self.context = context
        self.request = request
        self.finished = finished
    }

    /// Writes the response's head and starts the first items.
    func start(keepAlive: Bool) {
        var headers: HTTPHeaders = ["Content-Type": Batch.contentType, "Cache-Control": "no-store"]
        // HTTP/1.1 streams it chunked; HTTP/1.0 has no chunks, so the body ends with the connection.
        if !keepAlive || request.version.minor == 0 { headers.add(name: "Connection", value: "close") }
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: request.version, status: .ok,
                                                                                     headers: headers))), promise: nil)
        if targets.isEmpty { writeEnd() } else { fill() }
    }

    private func fill() {
        let loop = context.eventLoop
        while running < BatchStream.concurrency && next < targets.count && context.channel.isActive {
            let index = next
            next += 1
            running += 1
            counter.recordItem(Route.path(of: targets[index]))
            responder.batchPart(targets[index], on: loop).hop(to: loop).assumeIsolated().whenSuccess { response in
                self.running -= 1
                self.write(response, as: index)
                self.fill()
            }
        }
    }

    private func write(_ response: Response, as index: Int) {
        guard context.channel.isActive else { return }
        var body = ByteBuffer()
        var status = Int(response.status.code)
        switch response.body {
        case .none: break
        case .bytes(let buffer): body = buffer
        case .file: status = 500                // renditions are bytes; a file is never a part
        }
        // Which rendition the part is, as its own response would have said had it been
        // redirected: an opening batch's client learns it here (`Batch.Opening`).
        let headers = response.headers.filter { name, _ in name.lowercased() != "content-length" }
            .map { (name: $0.name, value: FetchError.printable($0.value)) } + [(name: "Content-Location", value: locations[index])]
        var part = ByteBuffer(bytes: Batch.partHead(index: index, status: status, length: body.readableBytes, headers: headers))
        part.writeBuffer(&body)
        bytes += part.readableBytes
        written += 1
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(part))), promise: nil)
        if written == targets.count { writeEnd() } else { context.flush() }
    }

    private func writeEnd() {
        bytes += Batch.end.count
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: Batch.end)))), promise: nil)
        let total = bytes, finished = self.finished
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).assumeIsolated().whenComplete { _ in finished(total) }
    }
}
