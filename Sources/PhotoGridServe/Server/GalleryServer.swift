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

/// `photogrid serve DIR`: an HTTP/1.1 server of one folder's photos, as a gallery manifest
/// (docs/remote-gallery.md), renditions it makes, and the originals.
///
/// SwiftNIO underneath: a few event loops move bytes, and a worker pool, one thread per core,
/// does everything that can block or take long (opening files, decoding, encoding, the disk
/// cache), so that a slow rendition never holds up a manifest or an original.
///
/// ```swift
/// let server = try GalleryServer(.init(folder: "Photos", port: 0))
/// let port = try server.start()        // then browse server.url
/// server.stop()
/// ```
package final class GalleryServer: Sendable {
    /// photogrid's own port, chosen to stay clear of the common ones (8000, 8080, 8443, 8888).
    package static let defaultPort = 8477

    package let configuration: Configuration
    let index: GalleryIndex
    let manifest: ManifestStore
    let renditions: RenditionStore
    private let responder: GalleryResponder
    private let counter = RequestCounter()
    /// Connections open now: what the limits count.
    let openConnections = OpenConnections()
    private let pool: NIOThreadPool
    /// With `tlsCertificate`: what each connection's TLS is made from.
    private let tls: TLSContext?
    /// With TLS, originals are read into memory to be encrypted (sendfile cannot carry them), a
    /// chunk at a time, by threads of their own: behind the renditions being made they would wait.
    private let fileReads: NIOThreadPool?
    private let state = Locked(State())

    /// What start and stop change, under one lock.
    private struct State {
        var group: MultiThreadedEventLoopGroup?
        var channel: Channel?
        var port: Int?
        var poolStarted = false
        var stopped = false
    }

    /// Scans the folder (quickly: names and sizes, no file contents) and checks the
    /// configuration. A folder with no photos is served as an empty gallery.
    package init(_ configuration: Configuration) throws {
        let sizes = try configuration.validated()
        self.configuration = configuration
        index = try GalleryIndex(folder: configuration.folder)
        var cache: DiskCache? = nil
        if let directory = configuration.cacheDirectory {
            guard let made = DiskCache(directory: directory, limitBytes: configuration.cacheLimitBytes) else {
                throw ServeError.cacheUnusable(directory)
            }
            cache = made
        }
        tls = try GalleryServer.tlsContext(configuration)
        fileReads = tls == nil ? nil : NIOThreadPool(numberOfThreads: 2)
        // Two at least: a rendition held up in a test, or by a slow disk, must leave a worker
        // for the rest.
        let workers = max(2, WorkerThreads.cores)
        pool = NIOThreadPool(numberOfThreads: workers)
        manifest = ManifestStore(index: index, sizes: sizes, pool: pool, workers: workers)
        renditions = RenditionStore(sizes: sizes, root: index.root, cache: cache, pool: pool)
        responder = GalleryResponder(index: index, manifest: manifest, renditions: renditions, pool: pool,
                                     token: configuration.token.map(AccessToken.init))
    }

    /// A new access token: 128 random bits.
    package static func newToken() -> String { AccessToken.generate() }

    /// The number of photos served.
    package var photoCount: Int { index.entries.count }
    /// Photos found but not served: links out of the folder, and names that collide as ids.
    package var excludedCount: Int { index.excluded }

    /// Listens and returns the port (the one chosen, with port 0). Starts the manifest at once,
    /// so that it is ready, or nearly, when the first client asks.
    @discardableResult
    package func start() throws -> Int {
        try state.withLock { state throws(ServeError) -> Int in
            if let port = state.port { return port }
            guard !state.stopped else { throw .stopped }
            if !state.poolStarted {
                pool.start()
                fileReads?.start()
                state.poolStarted = true
            }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: min(4, WorkerThreads.cores))
            let channel: Channel
            do {
                channel = try bootstrap(group).bind(host: configuration.host, port: configuration.port).wait()
            } catch {
                try? group.syncShutdownGracefully()
                throw .cannotListen(host: configuration.host, port: configuration.port, reason: GalleryServer.reason(error))
            }
            state.group = group
            state.channel = channel
            let port = channel.localAddress?.port ?? configuration.port
            state.port = port
            _ = manifest.document(on: group.next())
            return port
        }
    }

    /// Stops listening, lets renditions being made finish, and closes every connection. The
    /// port is free when this returns.
    package func stop() {
        let (channel, group, poolStarted) = state.withLock { state in
            defer {
                state.channel = nil
                state.group = nil
                state.port = nil
                state.poolStarted = false
                state.stopped = true
            }
            return (state.channel, state.group, state.poolStarted)
        }
        try? channel?.close().wait()
        if poolStarted {
            try? pool.syncShutdownGracefully()
            try? fileReads?.syncShutdownGracefully()
        }
        try? group?.syncShutdownGracefully()
    }

    /// The address to give to `photogrid --url`, with the access token in its path when there
    /// is one. A server listening on every address is reached from here through the loopback one.
    package var url: String {
        let port = state.withLock { $0.port } ?? configuration.port
        var host = configuration.host
        if host == "0.0.0.0" || host.isEmpty { host = "127.0.0.1" }
        if host == "::" { host = "::1" }
        if host.contains(":") { host = "[" + host + "]" }
        return (tls == nil ? "http" : "https") + "://\(host):\(port)/" + (configuration.token.map { "t/\($0)/" } ?? "")
    }

    /// Requests for `path` so far (as requested: percent-encoded, without the query).
    package func requestCount(path: String) -> Int { counter.count(path: path) }

    package var totalRequests: Int { counter.total }

    /// Batches that were openings: first visits that asked for their screen beside the manifest.
    package var openingBatches: Int { counter.openings }

    /// Every path requested so far (percent-encoded, without the query) and how many times.
    package var requestsByPath: [String: Int] { counter.byPath }

    private func bootstrap(_ group: MultiThreadedEventLoopGroup) -> ServerBootstrap {
        let responder = self.responder, counter = self.counter, failures = FailedAttempts(), tls = self.tls
        let limits = configuration.limits, open = openConnections
        let delay = configuration.delayMilliseconds, log = configuration.log
        let fileChunks = fileReads.map { NonBlockingFileIO(threadPool: $0) }
        return ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            // A restarted server can take its port back at once, despite connections of the last
            // one in TIME_WAIT; two servers on one port still fail on Linux.
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(TLSHandler(context: tls)) }
                    let guardHandler = ConnectionGuard(limits: limits, open: open)
                    try channel.pipeline.syncOperations.addHandler(RequestStartWatch(guardHandler))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(guardHandler)
                    try channel.pipeline.syncOperations.addHandler(
                        GalleryChannelHandler(responder: responder, counter: counter, failures: failures,
                                              delayMilliseconds: delay, log: log, fileChunks: fileChunks))
                }
            }
    }

    /// The TLS context of `--tls-cert` and `--tls-key`, read once at start-up: a missing file or
    /// a key that is not the certificate's is an error before anything is served.
    private static func tlsContext(_ configuration: Configuration) throws(ServeError) -> TLSContext? {
        guard let certificate = configuration.tlsCertificate, let key = configuration.tlsKey else { return nil }
        do throws(TLSFailure) {
            return try TLSContext(certificate: certificate, key: key)
        } catch {
            throw .invalid("cannot use --tls-cert \(certificate) with --tls-key \(key): not PEM files of a certificate and its private key")
        }
    }

    /// A bind failure in words, with a hint for the common ones.
    private static func reason(_ error: Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        switch error.errnoCode {
        case EADDRINUSE: return "the port is in use (another server? choose another port)"
        case EACCES: return "permission denied (ports below 1024 need privileges)"
        case EADDRNOTAVAIL: return "no such address on this machine"
        default: return String(cString: strerror(error.errnoCode))
        }
    }
}
