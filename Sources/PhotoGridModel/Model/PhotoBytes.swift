import PhotoGridSystem

/// What a loader hands a decoder: where the photo's bytes are, or the bytes themselves.
package enum PhotoBytes: Sendable {
    /// A file on disk: the decoder reads what it needs of it, in place.
    case file(RawPath)
    /// The whole photo, in memory (downloaded).
    case whole([UInt8])
    /// The photo's first bytes only (a byte range of a remote original): enough for its details,
    /// its EXIF thumbnail, and often for a progressive JPEG's first scans. `fileSize` when known.
    case head([UInt8], fileSize: Int?)
    /// A camera JPEG's first bytes and the larger preview its Multi-Picture index there points
    /// to, fetched as a second byte range of a remote original.
    case preview(head: [UInt8], preview: [UInt8])

    /// The bytes in memory, head or whole; nil for a file.
    package var inMemory: [UInt8]? {
        switch self {
        case .file: return nil
        case .whole(let bytes), .head(let bytes, _), .preview(let bytes, _): return bytes
        }
    }

    /// Parts of a photo only (a head, a head and its preview): a picture they cannot give
    /// needs the whole original.
    package var isPart: Bool {
        switch self {
        case .head, .preview: return true
        case .file, .whole: return false
        }
    }
}
