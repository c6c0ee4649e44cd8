/// A file path as the kernel knows it: bytes, which need not be valid UTF-8.
/// Kept as bytes so that every file a folder holds can be opened, whatever its name.
package struct RawPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package init(_ string: String) { self.bytes = Array(string.utf8) }

    /// Joins with a slash.
    package func appending(_ component: [UInt8]) -> RawPath {
        if bytes.isEmpty { return RawPath(component) }
        return RawPath(bytes.last == UInt8(ascii: "/") ? bytes + component : bytes + [UInt8(ascii: "/")] + component)
    }

    /// The last component.
    package var lastComponent: RawPath {
        var trimmed = bytes[...]
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: UInt8(ascii: "/")), slash < trimmed.endIndex - 1 {
            return RawPath(Array(trimmed[(slash + 1)...]))
        }
        return RawPath(Array(trimmed))
    }

    /// The folder holding this path ("/" for a path at the top, "." for a bare name).
    package var parent: RawPath {
        var trimmed = bytes[...]
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return RawPath(".") }
        return slash == trimmed.startIndex ? RawPath("/") : RawPath(Array(trimmed[..<slash]))
    }

    /// A folder's name for a title: its last component, "/" for the root.
    package var title: String { bytes.allSatisfy { $0 == UInt8(ascii: "/") } && !bytes.isEmpty ? "/" : lastComponent.description }

    /// The extension after the last dot of the last component, lowercased ASCII.
    package var lowercasedExtension: String {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// For people to read; invalid UTF-8 shows as U+FFFD. Not yet safe for a terminal:
    /// see `TerminalText.sanitize`.
    package var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Calls `body` with a NUL-terminated C string of the path.
    package func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    package static func < (a: RawPath, b: RawPath) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}
