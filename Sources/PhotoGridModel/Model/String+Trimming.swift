extension String {
    /// Without leading and trailing spaces, tabs and line breaks: XMP's values, captions typed,
    /// manifests' names.
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around header values and list items: the
    /// client's (`HTTPCache`) and the server's (`ByteRange`) one reading of them.
    package var trimmingSpaces: Substring {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return Substring(slice)
    }
}
