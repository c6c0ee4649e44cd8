import NIOCore
import NIOHTTP1
import PhotoGridCore

/// What a connection may take of the server, beyond loopback or not: at most so many connections
/// in all and from one address, and a deadline for each request's head (from the connection's
/// start, or from the last response), so that a client sending one byte a second, or holding a
/// connection open doing nothing, is dropped and frees its place. HTTP/1.1 answers one request
/// at a time per connection (`HTTPServerPipelineHandler`), so bounding a client's connections
/// bounds its requests in flight too.
package struct ConnectionLimits: Sendable {
    package var total = 512
    /// One address may be many people (an office behind NAT): `--client-connections` raises it.
    package var perClient = 32
    /// Seconds for a request's head and body to arrive once the server waits for one.
    package var requestSeconds: Int64 = 15
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
/// closes it when a request takes longer than `requestSeconds` to arrive. No deadline runs
/// while a response is being made (a large rendition may take a while).
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

    init(limits: ConnectionLimits, open: OpenConnections) {
        self.limits = limits
        self.open = open
    }

    func handlerAdded(context: ChannelHandlerContext) {
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
        arm(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if let address { open.release(address) }
        address = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The request is in: the server's turn, with no deadline.
        if case .end = unwrapInboundIn(data) { deadline?.cancel() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        // Once the response is out (handed to the kernel whole, however long a large original
        // takes a slow client to read), the next request must come in time.
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenSuccess { self.arm(context: context) }
        context.write(data, promise: written)
    }

    private func arm(context: ChannelHandlerContext) {
        guard address != nil else { return }        // closed, or never admitted
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .seconds(limits.requestSeconds)) { channel.close(promise: nil) }
    }
}
