import NIOCore
import NIOHTTP1

/// A response as the responder decides it, before the channel handler writes it: status,
/// headers with `Content-Length` set, and a body of bytes or of a file's range.
struct Response: Sendable {
    /// What follows the head.
    enum Body: Sendable {
        case none
        case bytes(ByteBuffer)
        /// Sent from the file by the kernel (`sendfile`), never read into memory here.
        case file(ConfinedFile, Range<Int>)
    }

    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: Body

    init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: Body = .none) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text answer: errors, 404s.
    static func text(_ status: HTTPResponseStatus, _ message: String, headers extra: HTTPHeaders = [:]) -> Response {
        var headers = extra
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        let body = ByteBuffer(string: message + "\n")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        return Response(status: status, headers: headers, body: .bytes(body))
    }

    static let notFound = Response.text(.notFound, "not found")

    /// Bytes as the whole body. A response to HEAD has the same headers and no body.
    static func bytes(_ bytes: [UInt8], contentType: String, headers extra: HTTPHeaders, isHead: Bool) -> Response {
        var headers = extra
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(bytes.count))
        return Response(status: .ok, headers: headers, body: isHead ? .none : .bytes(ByteBuffer(bytes: bytes)))
    }

    /// The length the headers announce, for the log.
    var contentLength: Int { headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0 }
}
