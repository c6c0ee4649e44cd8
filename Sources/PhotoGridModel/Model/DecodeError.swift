import PhotoGridSystem

/// Why a photo could not be shown. `reason` is the short text its placeholder tile carries.
package enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An image file of a format photogrid does not decode (TIFF, PSD, RAW...), named by `format`.
    case unsupportedFormat(String)
    /// Not readable: permissions, a vanished file, an I/O error.
    case unreadable(String)
    /// libjpeg rejected the data.
    case corrupt(String)
    /// The file does not start as a JPEG does, nor as any other image format photogrid knows.
    case notJPEG
    /// The data stops before the image does.
    case truncated
    /// No data at all.
    case empty
    /// A valid JPEG of a kind libjpeg-turbo does not decode (12-bit, for example).
    case unsupportedJPEG(String)
    /// A file of another format than JPEG (`format`, "PNG") that its library rejected, or that stops early.
    case corruptFile(format: String, String)
    case truncatedFile(format: String)
    /// Width times height, or the file, is past what photogrid allows itself.
    case tooLarge
    case outOfMemory
    /// The photo's source could not give it (a download failed, for a remote gallery's
    /// decoder); `retryable` when it may later: the photo is tried again when it comes back on
    /// screen. The core does not know what the source is.
    case unavailable(String, retryable: Bool)
    /// A camera's raw file with no preview in it, named by its maker and kind ("Canon CR2"): its
    /// raw data is developed only for the photo view.
    case noPreview(String)
    /// Stopped because nothing wanted it any more (`CancelFlag`): never shown, made again if wanted.
    case cancelled

    /// strerror(ENOENT), as `FileReader` reports it.
    static let missingFile = SystemError.notFoundMessage

    package var reason: String {
        switch self {
        case .unsupportedFormat(let format) where format.hasSuffix(" video"): return "\(format): Enter plays it"
        case .unsupportedFormat(let format): return format.isEmpty ? "unsupported format" : "unsupported format (\(format))"
        // A file deleted or moved since the folder was read is gone, not broken (Ctrl-R takes it out).
        case .unreadable(let detail): return detail == DecodeError.missingFile ? "gone (deleted or moved)" : "unreadable"
        case .corrupt: return "corrupt JPEG"
        case .notJPEG: return "not a JPEG"
        case .truncated: return "truncated JPEG"
        case .empty: return "empty file"
        case .unsupportedJPEG(let detail): return DecodeError.kind(ofUnsupported: detail).map { "unsupported JPEG (\($0))" } ?? "unsupported JPEG"
        case .corruptFile(let format, _): return "corrupt \(format)"
        case .truncatedFile(let format): return "truncated \(format)"
        case .tooLarge: return "too large"
        case .outOfMemory: return "out of memory"
        case .unavailable(let reason, _): return reason
        case .noPreview(let kind): return kind + ": no preview"
        case .cancelled: return "cancelled"
        }
    }

    /// What libjpeg-turbo's message says the JPEG is, in a word or two: "12-bit" for
    /// "Unsupported JPEG data precision 12", "lossless" for a lossless (SOF3) frame.
    static func kind(ofUnsupported message: String) -> String? {
        let words = message.lowercased().split(separator: " ")
        if let at = words.firstIndex(of: "precision"), at + 1 < words.count, let bits = Int(words[at + 1]) { return "\(bits)-bit" }
        if words.contains(where: { $0.hasPrefix("0xc3") || $0.hasPrefix("lossless") }) { return "lossless" }
        if words.contains(where: { $0.hasPrefix("arith") }) { return "arithmetic coding" }
        return nil
    }

    package var description: String {
        switch self {
        case .unreadable(let detail), .corrupt(let detail), .unsupportedJPEG(let detail):
            return detail.isEmpty ? reason : "\(reason): \(detail)"
        default: return reason
        }
    }
}
