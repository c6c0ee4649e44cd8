import NIOCore
import NIOHTTP1
import PhotoGridCore

/// One HTTP/1.1 connection: takes each request from NIO's HTTP decoder, has the responder decide
/// the answer, and writes it, keeping the connection open unless the client or HTTP/1.0 says not.
///
/// NIO's `HTTPServerPipelineHandler` sits before this one and holds back a pipelined request
/// until the previous response is written, so there is one request at a time here, and
/// responses leave in order.
final class GalleryChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: GalleryResponder
    private let counter: RequestCounter
    private let failures: FailedAttempts
    private let delay: TimeAmount
    private let log: Bool
    private var request: HTTPRequestHead?
    private var started = 0.0

    init(responder: GalleryResponder, counter: RequestCounter, failures: FailedAttempts, delayMilliseconds: Int, log: Bool) {
        self.responder = responder
        self.failures = failures
        self.counter = counter
        self.delay = .milliseconds(Int64(delayMilliseconds))
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            started = ManifestStore.now()
            counter.record(Route.path(of: head.uri))
        case .body:
            break                                   // no route takes a body: it is read and dropped
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let responder = self.responder
        let waited = delay.nanoseconds > 0
            ? loop.scheduleTask(in: delay) {}.futureResult
            : loop.makeSucceededVoidFuture()
        let failures = self.failures
        let address = context.channel.remoteAddress?.ipAddress ?? "?"
        waited.flatMap { responder.respond(to: head, on: loop) }
            .flatMap { response -> EventLoopFuture<Response> in
                // A wrong token waits before it is told so, longer the more it is tried.
                guard response.status == .unauthorized else { return loop.makeSucceededFuture(response) }
                return loop.scheduleTask(in: .milliseconds(failures.delay(for: address))) { response }.futureResult
            }
            .hop(to: loop)
            .assumeIsolated()
            .whenSuccess { response in self.write(response, for: head, context: context) }
    }

    private func write(_ response: Response, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        // The client left while the response was being made: nothing to write to. A file in
        // the response is closed when the response goes.
        guard context.channel.isActive else { return }
        let keepAlive = request.isKeepAlive
        var headers = response.headers
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if request.version.minor == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        switch response.body {
        case .none:
            break
        case .bytes(let buffer):
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        case .file(let file, let range):
            // The handle closes the descriptor when the write is done or has failed (the client
            // went away): the file is never read into memory, and never left open.
            if let fd = file.takeDescriptor() {
                let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: fd)
                let region = FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound)
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.whenComplete { _ in try? handle.close() }
                context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: written)
            } else {
                context.close(promise: nil)         // cannot happen: each file is sent once
                return
            }
        }
        let status = response.status.code, length = response.contentLength, started = self.started
        let log = self.log
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if log { GalleryChannelHandler.logLine(request, status: status, bytes: length, since: started) }
            if !keepAlive { context.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// `GET /renditions/a.jpg/512.jpg 200 48123 B 12.3 ms`, to stderr.
    static func logLine(_ request: HTTPRequestHead, status: UInt, bytes: Int, since started: Double) {
        let milliseconds = (ManifestStore.now() - started) * 1000
        let target = logged(request.uri)
        let line = "\(request.method) \(target) \(status) \(bytes) B \(Double(Int(milliseconds * 10)) / 10) ms\n"
        _ = try? TTY.writeAll(Array(line.utf8), to: 2)
    }

    /// A request's target as the log shows it: control characters (the parser lets some through)
    /// as `?`, and the access token, or a guess at it, as `***`: a log may be read by others.
    static func logged(_ uri: String) -> String {
        let target = String(uri.unicodeScalars.map { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? "?" : Character($0) })
        guard target.hasPrefix("/t/") else { return target }
        let rest = target.dropFirst(3)
        return "/t/***" + (rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "")
    }
}
