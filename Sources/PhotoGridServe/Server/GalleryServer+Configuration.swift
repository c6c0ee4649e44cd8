import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What to serve and how, and what can go wrong before serving starts.
extension GalleryServer {
    /// Everything `photogrid serve` takes from its command line.
    package struct Configuration: Sendable {
        /// The served folder: every JPEG below it, and nothing outside it.
        package var folder: String
        /// The address to listen on: "127.0.0.1" keeps the gallery on this machine; "0.0.0.0"
        /// (or "::") opens it to the network.
        package var host: String = "127.0.0.1"
        /// 0: any free port (see `start()`'s result).
        package var port: Int = GalleryServer.defaultPort
        /// Where renditions are kept between requests and runs; nil: made again on every request
        /// that does not coincide with another for the same rendition.
        package var cacheDirectory: String?
        /// What the rendition cache may hold before its least recently used files go.
        package var cacheLimitBytes: Int = 2 * 1024 * 1024 * 1024
        /// Added before every response: for benchmarks of a client over a slow network.
        package var delayMilliseconds: Int = 0
        /// The renditions' long sides, in pixels.
        package var renditionSizes: [Int] = [256, 512, 1024, 2048]
        /// One line per request on stderr.
        package var log = false
        /// The access token every request's path must begin with (`/t/TOKEN/`); nil: none asked
        /// for. `photogrid serve` makes one up for any address but loopback.
        package var token: String?
        /// PEM files of the certificate (with its chain) and private key: HTTPS instead of HTTP.
        package var tlsCertificate: String?
        package var tlsKey: String?
        /// Connections in all and per client, and the deadline for each request to arrive.
        package var limits = ConnectionLimits()

        package init(folder: String, host: String = "127.0.0.1", port: Int = GalleryServer.defaultPort,
                    cacheDirectory: String? = nil, delayMilliseconds: Int = 0,
                    renditionSizes: [Int] = [256, 512, 1024, 2048], log: Bool = false) {
            self.folder = folder
            self.host = host
            self.port = port
            self.cacheDirectory = cacheDirectory
            self.delayMilliseconds = delayMilliseconds
            self.renditionSizes = renditionSizes
            self.log = log
        }

        /// Whether `host` is this machine's loopback address, where only its own users reach.
        package var isLoopback: Bool {
            host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }

        /// The sizes sorted, each once; the whole configuration checked.
        func validated() throws(ServeError) -> [Int] {
            guard (0...65535).contains(port) else { throw .invalid("port \(port) is not in 0...65535") }
            guard delayMilliseconds >= 0 else { throw .invalid("the delay cannot be negative") }
            guard !renditionSizes.isEmpty else { throw .invalid("no rendition sizes") }
            if let bad = renditionSizes.first(where: { $0 < 1 || $0 > 65_500 }) {
                throw .invalid("rendition size \(bad) is not in 1...65500 (JPEG's limit)")
            }
            guard (1...100_000).contains(limits.perClient) else { throw .invalid("--client-connections must be between 1 and 100000") }
            if (tlsCertificate == nil) != (tlsKey == nil) {
                throw .invalid("--tls-cert and --tls-key go together: the certificate and its private key")
            }
            if let token, !AccessToken.isAcceptable(token) {
                throw .invalid("the token must be 16 to 128 letters, digits, - or _")
            }
            return Array(Set(renditionSizes)).sorted()
        }
    }

    /// Why the server could not start.
    package enum ServeError: Error, Equatable, CustomStringConvertible {
        case folderNotFound(String)
        case notAFolder(String)
        case folderUnreadable(String, String)
        case cacheUnusable(String)
        case cannotListen(host: String, port: Int, reason: String)
        case invalid(String)
        /// `start()` after `stop()`: a stopped server's threads are gone.
        case stopped

        /// The exit status (README, "Exit status"): 2 where the command line names a folder
        /// that is not there or a value out of range, 1 for what fails once running.
        package var status: Int32 {
            switch self {
            case .folderNotFound, .notAFolder, .invalid: return 2
            case .folderUnreadable, .cacheUnusable, .cannotListen, .stopped: return 1
            }
        }

        package var description: String {
            switch self {
            case .folderNotFound(let path): return "\(path): no such folder"
            case .notAFolder(let path): return "\(path): not a folder"
            case .folderUnreadable(let path, let why): return "\(path): cannot read (\(why))"
            case .cacheUnusable(let path): return "\(path): cannot keep renditions there (not a writable folder)"
            case .cannotListen(let host, let port, let reason): return "cannot listen on \(host) port \(port): \(reason)"
            case .invalid(let what): return "invalid configuration: \(what)"
            case .stopped: return "the server was stopped; make a new one"
            }
        }
    }
}
