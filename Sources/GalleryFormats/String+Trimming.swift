extension String {
    /// Without leading and trailing spaces, tabs and line breaks (this target's own: it shares
    /// nothing with the core, whose XMP reader has the same few lines).
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
