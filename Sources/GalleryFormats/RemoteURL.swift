/// An absolute `http`, `https` or `sftp` URL, kept in the one normal form photogrid compares, hashes,
/// caches by and requests.
///
/// The text is normalised as RFC 3986 section 6.2.2-6.2.3 allows: scheme and host in lower case,
/// the scheme's default port left out, percent-escapes in upper case and escaped unreserved
/// characters unescaped, dot segments removed, an empty path written `/`, the fragment dropped
/// (it never reaches a server). Characters that may not stand raw in a path or query (non-ASCII
/// text, `"`, `<`, `{`, `\`, a `%` that starts no escape) are percent-encoded as UTF-8, as browsers
/// do, so that links written carelessly still work and equal URLs have equal text.
///
/// What is refused (nil): other schemes, a missing host, user information (`user:pw@`: photogrid
/// never sends credentials found in a document), a port outside 1-65535, a host that is not a
/// plain DNS name, IPv4 address or bracketed IPv6 literal (internationalised names must come in
/// their `xn--` form), and control characters. `init` also refuses spaces: a URL typed with a
/// space is usually a quoting mistake; references inside documents may have them (`resolving`).
///
/// One `String` holds the text, three offsets mark its parts and a UInt16 the port: a
/// million-photo gallery holds a million or more of these, so they stay at 32 bytes plus the text.
package struct RemoteURL: Hashable, Sendable, CustomStringConvertible {
    /// The URL in its normal form; always ASCII.
    package let description: String
    /// UTF-8 offsets into `description`: the end of the host, the start of the path, and the
    /// `?` that starts the query (or the end of the text).
    let hostEnd: Int32
    let pathStart: Int32
    let queryStart: Int32
    /// An explicit port other than the scheme's default; 0 when there is none.
    private let portNumber: UInt16
    package let scheme: Scheme

    /// The schemes photogrid reads galleries over.
    package enum Scheme: UInt8, Sendable {
        case http, https, sftp

        /// From a URL's scheme, in any case; nil for any other.
        init?(_ bytes: ArraySlice<UInt8>) {
            let lower = bytes.map { $0 | 0x20 }
            if lower.elementsEqual("http".utf8) { self = .http }
            else if lower.elementsEqual("https".utf8) { self = .https }
            else if lower.elementsEqual("sftp".utf8) { self = .sftp }
            else { return nil }
        }

        package var name: String {
            switch self {
            case .http: "http"
            case .https: "https"
            case .sftp: "sftp"
            }
        }

        var defaultPort: Int {
            switch self {
            case .http: 80
            case .https: 443
            case .sftp: 22
            }
        }

        /// http and https: what a web page may link between.
        package var isWeb: Bool { self != .sftp }
    }

    package init?(_ string: String) {
        let bytes = Array(string.utf8)
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }), let url = RemoteURL.absolute(bytes[...]) else { return nil }
        self = url
    }

    /// Assembles the normal form from parts already checked and normalised.
    init(scheme: Scheme, host: some Collection<UInt8>, port: UInt16, path: some Collection<UInt8>, query: (some Collection<UInt8>)?) {
        var text: [UInt8] = Array((scheme.name + "://").utf8)
        text.reserveCapacity(text.count + host.count + 6 + path.count + (query?.count ?? 0) + 2)
        text.append(contentsOf: host)
        let hostEnd = text.count
        if port != 0 { text.append(UInt8(ascii: ":")); text.append(contentsOf: String(port).utf8) }
        let pathStart = text.count
        if path.isEmpty { text.append(UInt8(ascii: "/")) } else { text.append(contentsOf: path) }
        let queryStart = text.count
        if let query { text.append(UInt8(ascii: "?")); text.append(contentsOf: query) }
        description = String(decoding: text, as: UTF8.self)
        self.hostEnd = Int32(hostEnd)
        self.pathStart = Int32(pathStart)
        self.queryStart = Int32(queryStart)
        portNumber = port
        self.scheme = scheme
    }

    /// A text already in the normal form, with its parts' offsets.
    init(text: String, scheme: Scheme, hostEnd: Int32, pathStart: Int32, queryStart: Int32, port: UInt16) {
        description = text
        self.hostEnd = hostEnd
        self.pathStart = pathStart
        self.queryStart = queryStart
        portNumber = port
        self.scheme = scheme
    }

    /// Parses `scheme://authority[path][?query][#fragment]` with the scheme already known to be
    /// there; spaces are encoded, since `init` has already refused them where they are not wanted.
    static func absolute(_ input: ArraySlice<UInt8>) -> RemoteURL? {
        guard let colon = input.firstIndex(of: UInt8(ascii: ":")),
              let scheme = Scheme(input[..<colon]) else { return nil }
        let rest = input[(colon + 1)...]
        guard rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else { return nil }
        let authorityStart = rest.startIndex + 2
        let authorityEnd = rest[authorityStart...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? rest.endIndex
        guard let (host, port) = RemoteURL.authority(rest[authorityStart..<authorityEnd], scheme: scheme) else { return nil }
        let (path, query) = RemoteURL.pathAndQuery(rest[authorityEnd...])
        return RemoteURL(scheme: scheme, host: host, port: port,
                         path: RemoteURL.removingDotSegments(RemoteURL.normalized(path, inQuery: false)),
                         query: query.map { RemoteURL.normalized($0, inQuery: true) })
    }

    /// Splits what follows the authority at `?` and drops the fragment.
    static func pathAndQuery(_ bytes: ArraySlice<UInt8>) -> (path: ArraySlice<UInt8>, query: ArraySlice<UInt8>?) {
        let withoutFragment = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex)]
        guard let mark = withoutFragment.firstIndex(of: UInt8(ascii: "?")) else { return (withoutFragment, nil) }
        return (withoutFragment[..<mark], withoutFragment[(mark + 1)...])
    }

    /// The host (lower case) and the port (0 for the default) of `host[:port]`; nil when either
    /// is not acceptable.
    static func authority(_ bytes: ArraySlice<UInt8>, scheme: Scheme) -> (host: [UInt8], port: UInt16)? {
        guard !bytes.contains(UInt8(ascii: "@")) else { return nil }
        let host: ArraySlice<UInt8>
        let portText: ArraySlice<UInt8>
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")),
                  RemoteURL.isIPv6(bytes[(bytes.startIndex + 1)..<close]) else { return nil }
            host = bytes[...close]
            let after = bytes[(close + 1)...]
            guard after.isEmpty || after.first == UInt8(ascii: ":") else { return nil }
            portText = after.dropFirst()
        } else {
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            host = bytes[..<colon]
            portText = bytes[colon...].dropFirst()
            // A DNS name or an IPv4 address. RFC 3986's reg-name also allows escapes and
            // sub-delimiters, which name no host a resolver can look up.
            guard !host.isEmpty, host.allSatisfy(RemoteURL.isUnreserved) else { return nil }
        }
        // An empty port ("http://h:/") means the default (RFC 3986 section 6.2.3).
        var port = 0
        guard portText.count <= 5 else { return nil }
        for digit in portText {
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
            port = port * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard portText.isEmpty || (1...65535).contains(port) else { return nil }
        if port == scheme.defaultPort { port = 0 }
        return (host.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, UInt16(port))
    }

    // MARK: - Parts

    private func text(_ from: Int32, _ to: Int32) -> Substring {
        // The text is ASCII, so every UTF-8 offset is a character boundary.
        let utf8 = description.utf8
        return description[utf8.index(utf8.startIndex, offsetBy: Int(from))..<utf8.index(utf8.startIndex, offsetBy: Int(to))]
    }

    /// Whether the scheme is https.
    package var isSecure: Bool { scheme == .https }
    /// Where the host starts: after "scheme://".
    private var hostStart: Int32 { Int32(scheme.name.utf8.count + 3) }
    /// The host in lower case; an IPv6 literal keeps its brackets, as in a `Host` header.
    package var host: String { String(text(hostStart, hostEnd)) }
    /// The port written in the URL, unless it was the scheme's default.
    package var port: Int? { portNumber == 0 ? nil : Int(portNumber) }
    /// The port to connect to.
    package var effectivePort: Int { portNumber != 0 ? Int(portNumber) : scheme.defaultPort }
    /// The path, percent-encoded, starting with "/".
    package var path: String { String(text(pathStart, queryStart)) }
    /// The query without its "?", percent-encoded; nil when there is no "?".
    package var query: String? {
        Int(queryStart) < description.utf8.count ? String(text(queryStart + 1, Int32(description.utf8.count))) : nil
    }
    /// `scheme://host[:port]`, which two URLs share when they are on the same server.
    package var origin: String { String(text(0, pathStart)) }
    /// The path with its query, as in an HTTP request line.
    package var pathAndQuery: String { String(text(pathStart, Int32(description.utf8.count))) }
    /// Whether the path ends with "/", as a directory's does.
    package var hasDirectoryPath: Bool { text(pathStart, queryStart).utf8.last == UInt8(ascii: "/") }

    /// The path's segments, percent-decoded, without the empty ones that its leading and trailing
    /// slashes would make: `/a/b%20c/` gives ["a", "b c"], `/` gives [].
    package var pathSegments: [String] {
        var segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        if segments.last?.isEmpty == true { segments = segments.dropLast() }
        return segments.map { RemoteURL.percentDecoded(Substring($0)) }
    }

    /// The last of `pathSegments` (a file's or a directory's name), or "" for the root.
    package var lastPathSegment: String { pathSegments.last ?? "" }

    // MARK: - Hashable

    package static func == (a: RemoteURL, b: RemoteURL) -> Bool { a.description == b.description }
    package func hash(into hasher: inout Hasher) { hasher.combine(description) }

    // MARK: - Internal parts for resolution

    /// The text's bytes with the host, path and query as slices of them, for building another URL.
    var parts: (host: ArraySlice<UInt8>, path: ArraySlice<UInt8>, query: ArraySlice<UInt8>?) {
        let bytes = Array(description.utf8)
        let query = Int(queryStart) < bytes.count ? bytes[(Int(queryStart) + 1)...] : nil
        return (bytes[Int(hostStart)..<Int(hostEnd)], bytes[Int(pathStart)..<Int(queryStart)], query)
    }

    var pathBytes: ArraySlice<UInt8> { parts.path }
    var portValue: UInt16 { portNumber }
}
