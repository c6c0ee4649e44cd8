/// Why a photo could not be shown. `reason` is the short text its placeholder tile carries.
public enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An image file of a format photogrid does not decode (PNG, HEIC, ...), named by `format`.
    case unsupportedFormat(String)
    /// Not readable: permissions, a vanished file, an I/O error.
    case unreadable(String)
    /// libjpeg rejected the data.
    case corrupt(String)
    /// The data stops before the image does (or the file is empty).
    case truncated
    /// A valid JPEG of a kind libjpeg-turbo does not decode (12-bit, for example).
    case unsupportedJPEG(String)
    /// Width times height, or the file, is past what photogrid allows itself.
    case tooLarge
    case outOfMemory
    /// A download failed; `transient` when it may work later (the photo is tried again when it
    /// comes back on screen).
    case network(String, transient: Bool)

    public var reason: String {
        switch self {
        case .unsupportedFormat(let format): return format.isEmpty ? "unsupported format" : "unsupported format (\(format))"
        case .unreadable: return "unreadable"
        case .corrupt: return "corrupt JPEG"
        case .truncated: return "truncated JPEG"
        case .unsupportedJPEG: return "unsupported JPEG"
        case .tooLarge: return "too large"
        case .outOfMemory: return "out of memory"
        case .network(let reason, _): return reason
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let detail), .corrupt(let detail), .unsupportedJPEG(let detail):
            return detail.isEmpty ? reason : "\(reason): \(detail)"
        default: return reason
        }
    }
}
