/// A request as read off its connection: the request line, the header fields, and the body.
struct Request: Sendable {
    var method: String
    /// The target as sent: percent-encoded, with its query.
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var headers: Headers
    /// A POST's body, or nil once it is longer than a batch may be; any other's is dropped.
    var body: [UInt8]? = []

    var version: String { "HTTP/1.\(minorVersion)" }

    /// Whether the connection stays open after the response: HTTP/1.1's default unless the
    /// client says `close`; HTTP/1.0's only when it says `keep-alive`.
    var isKeepAlive: Bool {
        minorVersion >= 1 ? !headers.contains(token: "close", in: "Connection")
            : headers.contains(token: "keep-alive", in: "Connection")
    }

    /// A request made here, for a batch's item: answered as a GET of the target would be.
    static func get(_ target: String) -> Request {
        Request(method: "GET", target: target, minorVersion: 1, headers: [:])
    }
}
