import NIOCore

/// TLS on a served connection: the bytes that arrive are handed to the session and what they
/// complete goes up the pipeline as plain bytes; plain bytes written are encrypted and sent.
/// Handshake messages go out as soon as the session has them. A protocol error, or a peer that
/// is no TLS client, closes the connection. Files go as bytes (GalleryChannelHandler reads them in
/// chunks under TLS): a file region cannot be encrypted on its way.
final class TLSHandler: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let session: TLSSession?
    private var closing = false

    init(context: TLSContext) {
        session = TLSSession(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let session else { return context.close(promise: nil) }
        let plain = buffer.withUnsafeReadableBytes { session.receive($0) }
        flushOutgoing(context)
        if session.failed { return context.close(promise: nil) }
        if !plain.isEmpty { context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: plain))) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        guard let session, buffer.withUnsafeReadableBytes({ session.send($0) }) else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let sealed = session.takeOutgoing()
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: sealed)), promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if let session, !closing, !session.failed {
            closing = true
            session.shutdown()
            flushOutgoing(context)
        }
        context.close(mode: mode, promise: promise)
    }

    private func flushOutgoing(_ context: ChannelHandlerContext) {
        guard let session else { return }
        let bytes = session.takeOutgoing()
        guard !bytes.isEmpty else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }
}
