import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// One request, as photogrid makes them: a GET (whole, or a byte range), a HEAD, a batch's
/// POST, a WebDAV PROPFIND; over http, https or sftp.
package struct TransferRequest: Sendable {
    package enum Method: Sendable, Equatable {
        case get
        /// The head alone.
        case head
        case post(body: [UInt8], type: String)
        /// WebDAV's folder listing (`Depth: 1`).
        case propfind(body: [UInt8])
        /// An upload to a bucket (`export DIR s3://...`).
        case put(body: [UInt8], type: String)
        case delete

        /// As the request line writes it.
        package var name: String {
            switch self {
            case .get: return "GET"
            case .head: return "HEAD"
            case .post: return "POST"
            case .propfind: return "PROPFIND"
            case .put: return "PUT"
            case .delete: return "DELETE"
            }
        }
    }

    package var url: RemoteURL
    package var method: Method = .get
    /// More header lines ("Name: value"); photogrid's User-Agent always goes.
    package var headers: [String] = []
    /// Only these bytes of the body. A server that ignores ranges sends them all: the transfer
    /// stops once it has these.
    package var range: Range<Int>?
    /// The most body bytes taken; past it the transfer fails (`tooLarge`).
    package var limit: Int
    /// Redirects followed (to http and https only, at most `TransferSettings.maxRedirects`).
    package var followsRedirects = true
    /// Tried again after a pause when it fails in a way that may pass (a reset, a 503).
    package var retries = 0

    package init(url: RemoteURL, limit: Int) {
        self.url = url
        self.limit = limit
    }
}

/// A response's status line and headers.
package struct ResponseHead: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    /// The URL that answered, after redirects: what relative links resolve against.
    package var url: RemoteURL

    /// The first value of the header `name`, whatever its case.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }
}

/// A user name and password for servers that want a login (`--user`, the URL's own, or
/// `~/.netrc` which libcurl reads itself). Never printed: its description says only that there is one.
package struct Login: Sendable, CustomStringConvertible {
    package var user: String
    package var password: String?
    /// The server it was given for (`scheme://host:port`): it goes to no other, not to a
    /// manifest's photos on a CDN, not after a redirect. Nil: whichever server a request starts at.
    package var origin: String?

    package init(user: String, password: String?, origin: String? = nil) {
        self.user = user
        self.password = password
        self.origin = origin
    }

    package var description: String { "a login" }
}

/// How every transfer of a run is made.
package struct TransferSettings: Sendable {
    /// Connections at a time to one server (HTTP/1.1); an HTTP/2 server takes all on one.
    package var connectionsPerHost = 6
    /// Seconds to connect before giving up (curl's own default is 300, rclone's 60: a server on
    /// the network photogrid browses answers a connection within a second or two, and a user
    /// looking at a blank screen gives up long before a minute; docs/decisions.md).
    package var connectTimeout = 5
    /// Seconds without a byte before a transfer is taken for stalled: a NAS waking its disks
    /// answers within about 15 (rclone waits 5 minutes, curl forever).
    package var stallTimeout = 20
    package var retries = 2
    package var maxRedirects = 5
    /// A PEM file of certificates trusted besides the system's (`--ca-cert`).
    package var trustedCertificates: String?
    /// The login given (`--user`, or the URL's); else `~/.netrc`'s for the host, if any.
    package var login: Login?
    /// The netrc file read for logins: `$NETRC`, else libcurl's own `~/.netrc`.
    package var netrcFile: String?
    /// Where SSH servers' keys are checked (`~/.ssh/known_hosts`).
    package var knownHosts: String?
    /// The private key offered to SSH servers besides the agent's (the first of
    /// `~/.ssh/id_ed25519`, `id_ecdsa`, `id_rsa` that exists).
    package var sshKey: String?
    /// Buckets' signers, by origin: their requests are signed, and get no other login.
    package var buckets = BucketSigners()

    package init() {}

    /// The settings a user's environment gives: the netrc file, the known hosts and SSH key in `~/.ssh`.
    package static func fromEnvironment() -> TransferSettings {
        var settings = TransferSettings()
        let home = Environment.value("HOME") ?? ""
        if let netrc = Environment.value("NETRC"), !netrc.isEmpty { settings.netrcFile = netrc }
        if !home.isEmpty {
            settings.knownHosts = home + "/.ssh/known_hosts"
            settings.sshKey = ["id_ed25519", "id_ecdsa", "id_rsa"].map { home + "/.ssh/" + $0 }.first { RawPath($0).isRegularFile }
        }
        return settings
    }
}

/// The signers of the buckets a run reads or writes, by origin (`scheme://host:port`). A class:
/// a bucket named by an https URL is known for one only once its first answer is read.
package final class BucketSigners: Sendable {
    private let byOrigin = Locked<[String: BucketSigner]>([:])

    package init() {}

    package func add(_ signer: BucketSigner, for origin: String) { byOrigin.withLock { $0[origin] = signer } }

    package func signer(for origin: String) -> BucketSigner? { byOrigin.withLock { $0[origin] } }
}
