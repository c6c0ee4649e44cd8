/// Why a remote document could not be read as a gallery, and where, in the form compilers use:
/// `manifest.json:23:15: photos[2].original: not an http or https URL`.
///
/// The line and column (as `JSONError` counts them) are those of the offending value, or of
/// the syntax error; the path names the value inside the manifest. Documents that are not JSON
/// at all have neither.
package struct ManifestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The document as messages name it: its URL's last path segment with the query
    /// (`manifest.json?page=2`), or the whole URL when the path is "/".
    package let document: String
    package let line: Int?
    package let column: Int?
    /// The value at fault, as `photos[2].original` or `renditions.sizes[0]`; nil for syntax
    /// errors and for faults of the document as a whole.
    package let path: String?
    package let message: String

    package init(document: String, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.document = document
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    init(_ url: RemoteURL, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.init(document: ManifestError.name(of: url), line: line, column: column, path: path, message: message)
    }

    /// A JSON syntax error (or a limit reached) in the document at `url`.
    init(_ url: RemoteURL, syntax error: JSONError) {
        self.init(url, line: error.line, column: error.column, message: error.message)
    }

    package var description: String {
        var text = document
        if let line, let column { text += ":\(line):\(column)" }
        text += ": "
        if let path { text += path + ": " }
        return text + message
    }

    static func name(of url: RemoteURL) -> String {
        let last = url.lastPathSegment
        guard !last.isEmpty else { return url.description }
        return last + (url.query.map { "?" + $0 } ?? "")
    }

    /// Text from a document, quoted for a message: at most 60 characters of it, with the C0 and
    /// C1 control characters and DEL escaped as JSON does, so that a hostile document cannot send
    /// escape sequences to the terminal the message is shown on.
    static func quoted(_ text: String) -> String {
        let short = text.count > 60 ? String(text.prefix(57)) + "..." : text
        var out = "\""
        for scalar in short.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F...0x9F:
                let code = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - code.count) + code
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
