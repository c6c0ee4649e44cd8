/// A URL as typed may carry a login (`https://anna:secret@nas.local/photos/`, `sftp://anna@nas/`).
/// photogrid takes it out before the URL is used anywhere: the login goes to the transfers for
/// that server alone, the URL without it is what is requested, cached, logged and handed on.
extension RemoteURL {
    /// A typed URL's login, taken out.
    package struct TypedLogin: Sendable, Equatable {
        /// The URL as typed without `user[:password]@`.
        package var url: String
        /// Percent-decoded, as RFC 3986 writes them.
        package var user: String?
        package var password: String?

        package init(url: String, user: String? = nil, password: String? = nil) {
            (self.url, self.user, self.password) = (url, user, password)
        }
    }

    /// `text` without the user information of its authority, and that information; the text
    /// unchanged when it has none (or is no URL with an authority).
    package static func splittingLogin(_ text: String) -> TypedLogin {
        let bytes = Array(text.utf8)
        guard let schemeEnd = RemoteURL.schemeEnd(bytes[...]), bytes.count > schemeEnd + 3,
              bytes[(schemeEnd + 1)..<(schemeEnd + 3)].elementsEqual("//".utf8) else { return TypedLogin(url: text) }
        let authorityStart = schemeEnd + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        // The last "@": a password may hold an unescaped one, a host never does.
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return TypedLogin(url: text) }
        let info = bytes[authorityStart..<at]
        let colon = info.firstIndex(of: UInt8(ascii: ":"))
        let user = String(decoding: info[..<(colon ?? info.endIndex)], as: UTF8.self)
        let password = colon.map { String(decoding: info[($0 + 1)...], as: UTF8.self) }
        let url = String(decoding: bytes[..<authorityStart] + bytes[(at + 1)...], as: UTF8.self)
        return TypedLogin(url: url, user: user.isEmpty ? nil : percentDecoded(user), password: password.map { percentDecoded($0) })
    }
}

