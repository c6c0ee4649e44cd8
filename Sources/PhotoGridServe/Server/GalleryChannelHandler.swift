import NIOCore
import NIOHTTP1
import NIOPosix
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

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
    /// A POST's body (a batch's list), or nil once it is longer than a batch may be.
    private var body: [UInt8]? = []
    /// On a TLS connection: files are read in chunks and written as bytes, since TLS encrypts in
    /// memory and TLSHandler cannot take sendfile's file regions. Nil: files go by sendfile.
    private let fileChunks: NonBlockingFileIO?

    init(responder: GalleryResponder, counter: RequestCounter, failures: FailedAttempts, delayMilliseconds: Int, log: Bool,
         fileChunks: NonBlockingFileIO? = nil) {
        self.fileChunks = fileChunks
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
            body = []
            started = SystemClock().seconds()
            counter.record(Route.path(of: head.uri))
        case .body(let buffer):
            // Only a batch (POST) takes a body; any other is read and dropped.
            guard request?.method == .POST, let kept = body else { break }
            body = kept.count + buffer.readableBytes <= Batch.maxRequestBytes ? kept + buffer.readableBytesView : nil
        case .end:
            guard let head = request else { return }
            request = nil
            if head.method == .POST {
                respondToBatch(head, body: body, context: context)
            } else {
                respond(to: head, context: context)
            }
            body = []
        }
    }

    /// A batch: refused as a whole (a wrong token, no batch), or streamed part by part.
    private func respondToBatch(_ head: HTTPRequestHead, body: [UInt8]?, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let responder = self.responder
        if let body, Batch.Opening(body: body) != nil { counter.recordOpening() }
        delayed(on: loop).flatMap { responder.batch(head, body: body, on: loop) }
        .hop(to: loop)
        .assumeIsolated()
        .flatMap { answer -> EventLoopFuture<GalleryResponder.BatchAnswer> in
            switch answer {
            case .items: return loop.makeSucceededFuture(answer)
            case .refused(let response): return self.slowed(response, context: context).map { .refused($0) }
            }
        }
        .whenSuccess { answer in
            switch answer {
            case .refused(let response):
                self.write(response, for: head, context: context)
            case .items(let targets, let locations):
                guard context.channel.isActive else { return }
                let keepAlive = head.isKeepAlive && head.version.minor > 0, started = self.started, log = self.log
                // The stream lives as long as the renditions it has asked for: nothing else holds
                // it, so a client that goes leaves nothing behind.
                BatchStream(targets: targets, locations: locations, responder: responder, context: context, request: head, counter: self.counter) { bytes in
                    if log { GalleryChannelHandler.logLine(head, status: 200, bytes: bytes, since: started) }
                    if !keepAlive { context.close(promise: nil) }
                }.start(keepAlive: keepAlive)
            }
        }
    }

    /// The configured delay (`--delay-ms`), before any answer.
    private func delayed(on loop: EventLoop) -> EventLoopFuture<Void> {
        delay.nanoseconds > 0 ? loop.scheduleTask(in: delay) {}.futureResult : loop.makeSucceededVoidFuture()
    }

    /// A wrong token waits before it is told so, longer the more it is tried.
    private func slowed(_ response: Response, context: ChannelHandlerContext) -> EventLoopFuture<Response> {
        let loop = context.eventLoop
        guard response.status == .unauthorized else { return loop.makeSucceededFuture(response) }
        let address = context.channel.remoteAddress?.ipAddress ?? "?"
        return loop.scheduleTask(in: .milliseconds(failures.delay(for: address))) { response }.futureResult
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let responder = self.responder
        delayed(on: loop).flatMap { responder.respond(to: head, on: loop) }
            .hop(to: loop)
            .assumeIsolated()
            .flatMap { response in self.slowed(response, context: context) }
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
        var body = context.eventLoop.makeSucceededVoidFuture()
        switch response.body {
        case .none:
            break
        case .bytes(let buffer):
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        case .file(let file, let range):
            guard let fd = file.takeDescriptor() else {
                context.close(promise: nil)         // cannot happen: each file is sent once
                return
            }
            // The handle closes the descriptor when the file has gone or the write has failed
            // (the client went away): the file is never held whole in memory, nor left open.
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: fd)
            if let fileChunks {
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                body = fileChunks.readChunked(fileHandle: handle, fromOffset: Int64(range.lowerBound), byteCount: range.count,
                                              chunkSize: 128 * 1024, allocator: context.channel.allocator,
                                              eventLoop: context.eventLoop) { chunk in
                    bound.value.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(chunk))))
                }
                body.whenComplete { _ in try? handle.close() }
            } else {
                let region = FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound)
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.whenComplete { _ in try? handle.close() }
                context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: written)
            }
        }
        let status = response.status.code, length = response.contentLength, started = self.started
        let log = self.log
        body.assumeIsolated().whenComplete { result in
            // A file that could not be read to its end: the response is cut, and the client
            // sees a short body rather than a wrong one.
            guard case .success = result else { return context.close(promise: nil) }
            context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if log { GalleryChannelHandler.logLine(request, status: status, bytes: length, since: started) }
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// `GET /renditions/a.jpg/512.jpg 200 48123 B 12.3 ms`, to stderr.
    static func logLine(_ request: HTTPRequestHead, status: UInt, bytes: Int, since started: Double) {
        let milliseconds = (SystemClock().seconds() - started) * 1000
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
