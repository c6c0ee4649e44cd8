import Glibc
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
/// A thread accepts connections and each connection is served by a thread of its own
/// (`ServedConnection`), blocking as it reads, makes and writes; the heavy work (decoding,
/// encoding) passes a gate as wide as the cores, so that a slow rendition never holds up a
/// manifest or an original, and a crowd of clients does not crowd the cores. POSIX sockets and
/// the system's libssl, no framework: docs/decisions.md, "serve on threads of its own".
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
    private let failures = FailedAttempts()
    /// Connections open now: what the limits count.
    let openConnections = OpenConnections()
    /// The connections being served, for `stop` to end.
    private let live = LiveConnections()
    /// With `tlsCertificate`: what each connection's TLS is made from.
    private let tls: TLSContext?
    private let state = Locked(State())

    /// What start and stop change, under one lock.
    private struct State {
        var listener: Listener?
        var accepting: JoinableThread?
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
        // Two at least: a rendition held up in a test, or by a slow disk, must leave room for
        // the rest.
        let workers = max(2, WorkerThreads.cores)
        let gate = WorkGate(width: workers)
        manifest = ManifestStore(index: index, sizes: sizes, gate: gate, workers: workers)
        renditions = RenditionStore(sizes: sizes, root: index.root, cache: cache, gate: gate)
        responder = GalleryResponder(index: index, manifest: manifest, renditions: renditions,
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
            if let listener = state.listener { return listener.port }
            guard !state.stopped else { throw .stopped }
            // A client that goes while a file is sent: `sendfile` has no MSG_NOSIGNAL, and the
            // signal would end the server; the failed write says it instead.
            signal(SIGPIPE, SIG_IGN)
            let listener: Listener
            do throws(Listener.Failure) {
                listener = try Listener(host: configuration.host, port: configuration.port)
            } catch {
                throw .cannotListen(host: configuration.host, port: configuration.port, reason: error.reason)
            }
            guard let accepting = JoinableThread({ self.accept(from: listener) }) else {
                listener.close()
                throw .cannotListen(host: configuration.host, port: configuration.port, reason: "no thread to accept connections")
            }
            state.listener = listener
            state.accepting = accepting
            manifest.start()
            return listener.port
        }
    }

    /// Stops listening, lets renditions being made finish, and closes every connection. The
    /// port is free when this returns.
    package func stop() {
        let (listener, accepting) = state.withLock { state in
            defer {
                state.listener = nil
                state.accepting = nil
                state.stopped = true
            }
            return (state.listener, state.accepting)
        }
        listener?.wake()
        accepting?.join()
        listener?.close()
        live.closeAll()
        manifest.waitForBuild()
    }

    /// The accept thread: each connection admitted by the limits gets a thread of its own.
    private func accept(from listener: Listener) {
        let limits = configuration.limits
        while let (fd, address) = listener.accept() {
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            guard openConnections.admit(address, limits: limits) else {
                close(fd)
                continue
            }
            guard let connection = Connection(fd: fd, address: address, tls: tls) else {
                close(fd)
                openConnections.release(address)
                continue
            }
            let served = ServedConnection(connection, responder: responder, counter: counter, failures: failures,
                                          delayMilliseconds: configuration.delayMilliseconds, log: configuration.log, limits: limits)
            let open = openConnections, live = self.live
            guard live.add(connection) else {
                connection.close()
                open.release(address)
                continue
            }
            // Out of `live` before the socket closes, so that `closeAll` never touches its number.
            let end: @Sendable () -> Void = {
                live.remove(connection)
                connection.close()
                open.release(address)
            }
            // glibc's usual 8 MB of stack, reserved rather than used: a connection's thread runs
            // every decoder (LibRaw, libheif and libtiff among them) where NIO's pool did.
            let started = WorkerThreads.start(stackBytes: 8 << 20) {
                served.run()
                end()
                served.finish()
                live.ended()
            }
            if !started {
                end()
                live.ended()
            }
        }
    }

    /// The address to give to `photogrid --url`, with the access token in its path when there
    /// is one. A server listening on every address is reached from here through the loopback one.
    package var url: String {
        let port = state.withLock { $0.listener?.port } ?? configuration.port
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

    /// The TLS context of `--tls-cert` and `--tls-key`, read once at start-up: a missing file or
    /// a key that is not the certificate's is an error before anything is served.
    private static func tlsContext(_ configuration: Configuration) throws(ServeError) -> TLSContext? {
        guard let certificate = configuration.tlsCertificate, let key = configuration.tlsKey else { return nil }
        do throws(TLSFailure) {
            return try TLSContext(certificate: certificate, key: key)
        } catch where error.libraryMissing {
            throw .invalid(error.description)
        } catch {
            throw .invalid("cannot use --tls-cert \(certificate) with --tls-key \(key): not PEM files of a certificate and its private key")
        }
    }
}

/// The connections being served, for `stop`: it shuts each down (which wakes its thread from
/// any read or write) and waits until every thread has ended.
final class LiveConnections: @unchecked Sendable {
    private let condition = Condition()
    private var serving: [ObjectIdentifier: Connection] = [:]
    private var threads = 0
    private var closing = false

    /// Counts a connection in; false once the server is stopping.
    func add(_ connection: Connection) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return false }
        serving[ObjectIdentifier(connection)] = connection
        threads += 1
        return true
    }

    /// Before the connection's socket is closed: `closeAll` then no longer touches it.
    func remove(_ connection: Connection) {
        condition.lock()
        serving[ObjectIdentifier(connection)] = nil
        condition.unlock()
    }

    /// The connection's thread has done all it will.
    func ended() {
        condition.lock()
        threads -= 1
        condition.broadcast()
        condition.unlock()
    }

    func closeAll() {
        condition.lock()
        closing = true
        for connection in serving.values { shutdown(connection.fd, Int32(SHUT_RDWR)) }
        while threads > 0 { condition.wait() }
        condition.unlock()
    }
}
