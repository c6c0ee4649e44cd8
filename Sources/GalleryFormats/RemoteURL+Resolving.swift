/// Reference resolution (RFC 3986 section 5.2): how the URLs inside a manifest or a listing
/// become absolute ones.
extension RemoteURL {
    /// The absolute URL `reference` names when it appears in the document at this URL; nil when
    /// it names something photogrid must not fetch or cannot read.
    ///
    /// - Absolute references of other schemes (`file:`, `javascript:`, `data:`, `ftp:`,
    ///   `mailto:`...) give nil, so a document can never make photogrid read a local file or
    ///   run anything.
    /// - `//host/x` takes this URL's scheme; `/x` its scheme and host; `x`, `./x`, `../x` are
    ///   merged with its path and their dot segments removed (never above the root); `?q` keeps
    ///   its path; `#f` and "" are this URL (fragments are dropped everywhere).
    /// - `http:x` (this URL's own scheme without "//") is read as the relative `x`, the
    ///   backward-compatible reading section 5.2.2 allows and browsers use; the strict reading
    ///   would be a URL without a host, which photogrid could not fetch anyway.
    /// - Spaces around the reference are dropped, and those inside and non-ASCII characters
    ///   percent-encoded, as browsers do with the links of a page (so " javascript:x" is still
    ///   refused); control characters anywhere give nil.
    package func resolving(_ reference: String) -> RemoteURL? {
        resolvingPlainRelative(reference) ?? resolvingAnyReference(reference)
    }

    /// `resolving` without its shortcut for plain relative paths: the tests hold the two equal.
    func resolvingAnyReference(_ reference: String) -> RemoteURL? {
        var reference = ArraySlice(reference.utf8)
        guard !reference.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        while reference.first == 0x20 { reference = reference.dropFirst() }
        while reference.last == 0x20 { reference = reference.dropLast() }
        reference = reference[..<(reference.firstIndex(of: UInt8(ascii: "#")) ?? reference.endIndex)]

        if let colon = RemoteURL.schemeEnd(reference) {
            // A web page links to web pages; an SFTP folder's names stay on its server.
            guard let other = Scheme(reference[..<colon]), other.isWeb == scheme.isWeb, scheme.isWeb || other == scheme else { return nil }
            let rest = reference[(colon + 1)...]
            if other == scheme && !rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
                reference = rest
            } else {
                return RemoteURL.absolute(reference)
            }
        }
        if reference.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            return RemoteURL.absolute(ArraySlice((scheme.name + ":").utf8) + reference)
        }

        let (referencePath, referenceQuery) = RemoteURL.pathAndQuery(reference)
        let query = referenceQuery.map { RemoteURL.normalized($0, inQuery: true) }
        let base = parts
        let path: [UInt8]
        if referencePath.isEmpty {
            return RemoteURL(scheme: scheme, host: base.host, port: portValue, path: base.path,
                             query: query.map { $0[...] } ?? base.query)
        } else if referencePath.first == UInt8(ascii: "/") {
            path = RemoteURL.normalized(referencePath, inQuery: false)
        } else {
            // Merge (section 5.2.3): everything of the base path up to its last "/", then the reference.
            let directory = base.path[...(base.path.lastIndex(of: UInt8(ascii: "/")) ?? base.path.startIndex)]
            path = RemoteURL.normalized(directory + referencePath, inQuery: false)
        }
        return RemoteURL(scheme: scheme, host: base.host, port: portValue, path: RemoteURL.removingDotSegments(path), query: query)
    }

    /// The common case of a manifest, `originals/a.jpg` or `originals/IMG%200001.jpg`: a relative
    /// path of characters that stand raw in a URL and escapes already in the normal form (upper
    /// case, of bytes that must stay escaped), with no dot segment, ":", "?", "#" or space.
    /// Merged with this URL's directory it needs no normalising, so its text is built in one piece
    /// (a million-photo manifest resolves a million of these); nil for anything else, which the
    /// general way takes.
    func resolvingPlainRelative(_ reference: String) -> RemoteURL? {
        var reference = reference
        return reference.withUTF8 { bytes -> RemoteURL? in
            guard let first = bytes.first, first != UInt8(ascii: "/") else { return nil }
            var segmentStart = 0, index = 0
            while index <= bytes.count {
                if index < bytes.count && bytes[index] != UInt8(ascii: "/") {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "%") {
                        guard index + 2 < bytes.count, let high = RemoteURL.upperHexValue(bytes[index + 1]),
                              let low = RemoteURL.upperHexValue(bytes[index + 2]), !RemoteURL.isUnreserved(high << 4 | low) else { return nil }
                        index += 3
                        continue
                    }
                    guard RemoteURL.isUnreserved(byte) || RemoteURL.isSubDelimiter(byte) || byte == UInt8(ascii: "@") else { return nil }
                    index += 1
                    continue
                }
                let length = index - segmentStart
                if length == 1 || length == 2, bytes[segmentStart..<index].allSatisfy({ $0 == UInt8(ascii: ".") }) { return nil }
                segmentStart = index + 1
                index += 1
            }
            var base = description
            return base.withUTF8 { text -> RemoteURL? in
                // This URL's directory: its text up to the last "/" of its path.
                guard let slash = text[Int(pathStart)..<Int(queryStart)].lastIndex(of: UInt8(ascii: "/")) else { return nil }
                let kept = slash + 1, count = kept + bytes.count
                let joined = String(unsafeUninitializedCapacity: count) { buffer in
                    buffer.baseAddress!.initialize(from: text.baseAddress!, count: kept)
                    (buffer.baseAddress! + kept).initialize(from: bytes.baseAddress!, count: bytes.count)
                    return count
                }
                return RemoteURL(text: joined, scheme: scheme, hostEnd: hostEnd, pathStart: pathStart, queryStart: Int32(count), port: portValue)
            }
        }
    }

    /// A hex digit's value as the normal form writes it: 0-9 and A-F, not a-f.
    private static func upperHexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The index of the ":" that ends a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
    /// section 3.1) at the start of `reference`, if one is there. `a:b.jpg` has one: a relative
    /// reference cannot start with a segment holding ":", which is why servers write `./a:b.jpg`.
    static func schemeEnd(_ reference: ArraySlice<UInt8>) -> Int? {
        guard let first = reference.first, isLetter(first) else { return nil }
        for index in reference.indices.dropFirst() {
            let byte = reference[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return nil }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `other` lies inside the directory of this URL (its path up to the last "/"), on
    /// the same server, below it rather than at it. Listings keep only such links.
    func contains(_ other: RemoteURL) -> Bool {
        guard other.origin == origin else { return false }
        let base = pathBytes
        let directory = base[...(base.lastIndex(of: UInt8(ascii: "/")) ?? base.startIndex)]
        let path = other.pathBytes
        return path.count > directory.count && path.starts(with: directory)
    }
}
