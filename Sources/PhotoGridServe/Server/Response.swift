/// A response as the responder decides it, before the connection writes it: status, headers
/// with `Content-Length` set, and a body of bytes or of a file's range.
struct Response: Sendable {
    /// What follows the head.
    enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// Sent from the file by the kernel (`sendfile`), never read into memory here.
        case file(ConfinedFile, Range<Int>)
    }

    var status: Status
    var headers: Headers
    var body: Body

    init(status: Status, headers: Headers = [:], body: Body = .none) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text answer: errors, 404s.
    static func text(_ status: Status, _ message: String, headers extra: Headers = [:]) -> Response {
        var headers = extra
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        let body = Array((message + "\n").utf8)
        headers.add(name: "Content-Length", value: String(body.count))
        return Response(status: status, headers: headers, body: .bytes(body))
    }

    static let notFound = Response.text(.notFound, "not found")

    /// Bytes as the whole body. A response to HEAD has the same headers and no body.
    static func bytes(_ bytes: [UInt8], contentType: String, headers extra: Headers, isHead: Bool) -> Response {
        var headers = extra
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(bytes.count))
        return Response(status: .ok, headers: headers, body: isHead ? .none : .bytes(bytes))
    }

    /// The length the headers announce, for the log.
    var contentLength: Int { headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0 }
}

/// An HTTP status: its code and the reason phrase the status line carries.
struct Status: Equatable, Sendable {
    let code: Int
    let reason: String

    static let `continue` = Status(code: 100, reason: "Continue")
    static let ok = Status(code: 200, reason: "OK")
    static let partialContent = Status(code: 206, reason: "Partial Content")
    static let notModified = Status(code: 304, reason: "Not Modified")
    static let badRequest = Status(code: 400, reason: "Bad Request")
    static let unauthorized = Status(code: 401, reason: "Unauthorized")
    static let notFound = Status(code: 404, reason: "Not Found")
    static let methodNotAllowed = Status(code: 405, reason: "Method Not Allowed")
    static let payloadTooLarge = Status(code: 413, reason: "Content Too Large")
    static let rangeNotSatisfiable = Status(code: 416, reason: "Range Not Satisfiable")
    static let headTooLarge = Status(code: 431, reason: "Request Header Fields Too Large")
    static let internalServerError = Status(code: 500, reason: "Internal Server Error")
    static let notImplemented = Status(code: 501, reason: "Not Implemented")
    static let versionNotSupported = Status(code: 505, reason: "HTTP Version Not Supported")
}

/// Header fields in the order given, names compared without regard to case (RFC 9110 §5.1).
struct Headers: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    private(set) var fields: [(name: String, value: String)] = []

    init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    init(_ fields: [(name: String, value: String)]) { self.fields = fields }

    func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    func first(name: String) -> String? {
        fields.first { Headers.same($0.name, name) }?.value
    }

    /// Every value of `name`, in order (a field may be sent more than once).
    func values(name: String) -> [String] {
        fields.filter { Headers.same($0.name, name) }.map(\.value)
    }

    mutating func add(name: String, value: String) { fields.append((name, value)) }

    mutating func remove(name: String) { fields.removeAll { Headers.same($0.name, name) } }

    mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Whether a comma-separated field (`Connection`) holds `token`, in any case.
    func contains(token: String, in name: String) -> Bool {
        values(name: name).contains { value in
            value.split(separator: ",").contains { Headers.same(String($0.trimmingSpaces), token) }
        }
    }

    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}

extension Substring {
    /// Without the spaces and tabs at either end (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
