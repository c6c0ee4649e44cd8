/// A request's head, from its bytes (the blank line included) to a `Request`, or the answer
/// that refuses it. Strict where leniency lets a request mean two things (a field folded over
/// lines, a space before a colon, control characters), as RFC 9112 asks of a server.
enum RequestHead {
    static func parse(_ head: [UInt8]) -> Result<Request, Refusal> {
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 13 ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { return .failure(Refusal(.text(.badRequest, "bad request line"))) }
        let parts = first.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0 > 32 && $0 != 127 }) else {
            return .failure(Refusal(.text(.badRequest, "bad request line")))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            let looksLikeHTTP = version.hasPrefix("HTTP/") && version.utf8.count == 8
            return .failure(Refusal(looksLikeHTTP ? .text(.versionNotSupported, "HTTP/1.1 only") : .text(.badRequest, "bad request line")))
        }
        var headers = Headers([])
        for line in lines.dropFirst() {
            // A folded line (obs-fold), a field without a colon, a space before it, a name that
            // is no token, a value with CR, LF or NUL: refused.
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
                return .failure(Refusal(.text(.badRequest, "bad header field")))
            }
            let value = line[(colon + 1)...]
            guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                return .failure(Refusal(.text(.badRequest, "bad header field")))
            }
            headers.add(name: String(decoding: line[line.startIndex..<colon], as: UTF8.self),
                        value: String(String(decoding: value, as: UTF8.self)[...].trimmingSpaces))
        }
        return .success(Request(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                                minorVersion: minor, headers: headers))
    }

    /// Whether the bytes of a head so far can still be a request: a method of token bytes, then
    /// a space, then no control character before the line ends.
    static func beginsWell(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let space = bytes.firstIndex(of: 32) else { return bytes.prefix(64).allSatisfy(isTokenByte) && bytes.count <= 64 }
        guard space > bytes.startIndex, bytes[bytes.startIndex..<space].allSatisfy(isTokenByte) else { return false }
        let rest = bytes[space...]
        let lineEnd = rest.firstIndex(of: 13) ?? rest.firstIndex(of: 10) ?? rest.endIndex
        return rest[..<lineEnd].allSatisfy { $0 >= 32 && $0 != 127 }
    }

    /// The answer to a head that cannot be taken; the connection is closed after it.
    struct Refusal: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    /// RFC 9110's tchar: letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }
}
