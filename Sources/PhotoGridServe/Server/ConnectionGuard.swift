import NIOCore
import NIOHTTP1
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What a connection may take of the server, beyond loopback or not: at most so many connections
/// in all and from one address; a deadline for each request once its first bytes come, so that
/// a client sending one byte a second is dropped; and one for a connection doing nothing, longer
/// than clients keep idle connections (AsyncHTTPClient 60 s, browsers less), so that a client
/// does not send a request just as the server closes (a reset, which it would not retry). HTTP/1.1 answers one request
/// at a time per connection (`HTTPServerPipelineHandler`), so bounding a client's connections
/// bounds its requests in flight too.
package struct ConnectionLimits: Sendable {
    package var total = 512
    /// One address may be many people (an office behind NAT): `--client-connections` raises it.
    package var perClient = 32
    /// Seconds for a request's head and body to arrive once its first bytes have.
    package var requestSeconds: Int64 = 15
    /// Seconds a connection may sit with no request (from its start or the last response).
    package var idleSeconds: Int64 = 75
}

/// The connections open now, in all and by address.
final class OpenConnections: Sendable {
    private let table = Locked<(total: Int, byAddress: [String: Int])>((0, [:]))

    /// Counts a new connection in; false (and not counted) when it is one too many.
    func admit(_ address: String, limits: ConnectionLimits) -> Bool {
        table.withLock { table in
            let fromThere = table.byAddress[address, default: 0]
            guard table.total < max(limits.total, limits.perClient), fromThere < limits.perClient else { return false }
            table.total += 1
            table.byAddress[address] = fromThere + 1
            return true
        }
    }

    func release(_ address: String) {
        table.withLock { table in
            table.total -= 1
            let left = table.byAddress[address, default: 1] - 1
            table.byAddress[address] = left > 0 ? left : nil
        }
    }

    var count: Int { table.withLock { $0.total } }
}

/// Sits between NIO's HTTP decoder and `GalleryChannelHandler`: admits the connection, and
/// closes it when it sits idle longer than `idleSeconds`, or when a request takes longer than
/// `requestSeconds` to arrive from its first bytes (`RequestStartWatch`, before the decoder,
/// says when they come). No deadline runs while a response is being made (a large rendition
/// may take a while).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let limits: ConnectionLimits
    private let open: OpenConnections
    private var address: String?
    private var refused = false
    private var deadline: Scheduled<Void>?
    /// Between requests: the idle deadline runs; the next bytes start the request's.
    private var idle = true
    private var channel: Channel?

    init(limits: ConnectionLimits, open: OpenConnections) {
        self.limits = limits
        self.open = open
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if address == nil && !refused { admit(context: context) }
        context.fireChannelActive()
    }

    private func admit(context: ChannelHandlerContext) {
        let from = context.channel.remoteAddress?.ipAddress ?? "?"
        guard open.admit(from, limits: limits) else {
            refused = true
            context.close(promise: nil)
            return
        }
        address = from
        arm(seconds: limits.idleSeconds)
    }

    /// A request's first bytes on an idle connection: the request's deadline from now.
    func requestBytesArrived() {
        guard idle else { return }
        idle = false
        arm(seconds: limits.requestSeconds)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if let address { open.release(address) }
        address = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The request is in: the server's turn, with no deadline.
        if case .end = unwrapInboundIn(data) {
            idle = false
            deadline?.cancel()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        // Once the response is out (handed to the kernel whole, however long a large original
        // takes a slow client to read), the connection is idle until the next request's bytes.
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenSuccess {
            self.idle = true
            self.arm(seconds: self.limits.idleSeconds)
        }
        context.write(data, promise: written)
    }

    private func arm(seconds: Int64) {
        guard address != nil, let channel else { return }        // closed, or never admitted
        deadline?.cancel()
        deadline = channel.eventLoop.scheduleTask(in: .seconds(seconds)) { channel.close(promise: nil) }
    }
}

/// Before NIO's HTTP decoder (after TLS): tells the guard when a request's first bytes come, so
/// that its deadline runs from then, not from the last response.
final class RequestStartWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let guardHandler: ConnectionGuard

    init(_ guardHandler: ConnectionGuard) { self.guardHandler = guardHandler }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guardHandler.requestBytesArrived()
        context.fireChannelRead(data)
    }
}
