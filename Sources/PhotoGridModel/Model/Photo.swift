import PhotoGridSystem

/// One image file of a gallery.
package struct Photo: Hashable, Sendable {
    /// Where its bytes are: a file, or a place its gallery's loader knows.
    package let source: PhotoSource
    /// The path below the gallery folder, for the status line.
    package let relativePath: RawPath
    package let format: ImageFormat
    /// Bytes when the folder was read (0 if unknown): a guess at what decoding it costs.
    package let fileSize: Int
    /// The file's size and mtime when the folder was read (nil for a photo that is not a file): what Ctrl-R
    /// compares with to find photos that changed since.
    package let stamp: FileStamp?

    /// A photo in a file.
    package init(path: RawPath, relativePath: RawPath, fileSize: Int = 0, format: ImageFormat? = nil, stamp: FileStamp? = nil) {
        source = .file(path)
        self.relativePath = relativePath
        self.format = format ?? ImageFormat(fileExtension: path.lowercasedExtension)
        self.fileSize = fileSize
        self.stamp = stamp
    }

    /// A photo only its gallery's loader can reach; its format as the gallery says.
    package init(remote place: any RemotePlace, relativePath: RawPath, fileSize: Int = 0, format: ImageFormat) {
        source = .remote(place)
        self.relativePath = relativePath
        self.format = format
        self.fileSize = fileSize
        stamp = nil
    }

    /// The photo's file; nil for a photo that is not one.
    package var file: RawPath? { source.file }

    package var name: String { relativePath.lastComponent.description }
}

/// A file's size and modification time: when either changes, it is another picture.
package struct FileStamp: Hashable, Sendable {
    package var size: Int
    package var modified: Int64

    package init(size: Int, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    package init(_ status: FileStatus) {
        self.init(size: status.size, modified: status.modified)
    }

    /// The file as it is now; nil when it is gone or cannot be looked at.
    package static func of(_ path: RawPath) -> FileStamp? { path.status().map(FileStamp.init) }
}

/// What a file's extension (or, without a known one, its first bytes) says it is. JPEG, PNG,
/// WebP, GIF, HEIF and AVIF are decoded, each for what its content is whatever its name; other
/// image files get a placeholder tile that says so, rather than vanishing from the grid.
package enum ImageFormat: Hashable, Sendable {
    case jpeg
    case png
    case webp
    case gif
    case heif
    case avif
    case tiff
    case jxl
    /// A camera's raw file, by its extension ("CR2", "NEF"): many are TIFFs inside, or ISO media
    /// (CR3), so the name decides, not the content.
    case raw(String)
    case other(String)
    case notAnImage

    /// The format's name, for messages.
    package var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .gif: return "GIF"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .tiff: return "TIFF"
        case .jxl: return "JPEG XL"
        case .raw(let kind): return kind
        case .other(let name): return name
        case .notAnImage: return ""
        }
    }

    /// The media type a server sends the file as.
    package var mediaType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .gif: return "image/gif"
        case .heif: return "image/heic"
        case .avif: return "image/avif"
        case .tiff: return "image/tiff"
        case .jxl: return "image/jxl"
        case .raw, .other, .notAnImage: return "application/octet-stream"
        }
    }

    /// Formats photogrid decodes.
    package var isDecoded: Bool {
        switch self {
        case .jpeg, .png, .webp, .gif, .heif, .avif, .tiff, .jxl, .raw: return true
        case .other, .notAnImage: return false
        }
    }

    static let jpegExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif"]
    /// Raw files LibRaw reads, of the cameras most in use.
    static let rawExtensions: Set<String> = ["dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "raf",
                                             "pef", "srw", "3fr", "iiq", "erf", "mos", "mrw", "x3f", "rwl", "raw"]

    /// A camera's raw file.
    package var isRaw: Bool {
        if case .raw = self { return true }
        return false
    }
    static let videoExtensions = ["mp4": "MP4 video", "m4v": "MP4 video", "mov": "QuickTime video", "mkv": "Matroska video",
                                  "webm": "WebM video", "avi": "AVI video"]

    /// A video: a tile that says so, and Enter plays it (`Player`).
    package var isVideo: Bool {
        if case .other(let name) = self { return name.hasSuffix(" video") }
        return false
    }
    static let otherImageExtensions: Set<String> = [
        "bmp", "ico", "svg", "psd", "xcf", "tga", "jp2",
        "ppm", "pgm", "pbm", "qoi",
    ]

    /// What a file's first bytes say it is, for files whose name says nothing: nil for anything
    /// that is not a picture.
    package init?(content head: [UInt8]) {
        if head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF { self = .jpeg; return }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png; return }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) { self = .webp; return }
        // Only signatures no other kind of file starts with: "BM" begins text too, and "ftyp"
        // begins every MP4 video, so a HEIF is known by its brand.
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            head.count >= offset + text.utf8.count && head[offset..<(offset + text.utf8.count)].elementsEqual(text.utf8)
        }
        if starts("GIF87a") || starts("GIF89a") { self = .gif; return }
        // A TIFF by its byte order and 42 (43: BigTIFF); a raw file that is a TIFF inside is
        // known by its name first.
        if head.count >= 4, (starts("II") && (head[2] == 0x2A || head[2] == 0x2B) && head[3] == 0)
            || (starts("MM") && head[2] == 0 && (head[3] == 0x2A || head[3] == 0x2B)) { self = .tiff; return }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { self = .jxl; return }
        if starts("ftyp", at: 4), ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(where: { starts($0, at: 8) }) {
            self = .heif; return
        }
        if starts("ftyp", at: 4), starts("avif", at: 8) || starts("avis", at: 8) { self = .avif; return }
        // Videos, shown as tiles that play them (`isVideo`): any other ISO media file (MP4, MOV,
        // 3GP), Matroska and WebM (EBML), AVI.
        if starts("ftyp", at: 4) { self = .other(starts("qt  ", at: 8) ? "QuickTime video" : "MP4 video"); return }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { self = .other("Matroska video"); return }
        if starts("RIFF"), starts("AVI ", at: 8) { self = .other("AVI video"); return }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { self = .other("TIFF"); return }
        return nil
    }

    package init(fileExtension ext: String) {
        if ImageFormat.jpegExtensions.contains(ext) { self = .jpeg }
        else if ext == "png" { self = .png }
        else if ext == "webp" { self = .webp }
        else if ext == "gif" { self = .gif }
        else if ext == "heic" || ext == "heif" || ext == "hif" { self = .heif }
        else if ext == "avif" { self = .avif }
        else if ext == "tif" || ext == "tiff" { self = .tiff }
        else if ext == "jxl" { self = .jxl }
        else if ImageFormat.rawExtensions.contains(ext) { self = .raw(ext.uppercased()) }
        else if ImageFormat.otherImageExtensions.contains(ext) { self = .other(ext.uppercased()) }
        else if let video = ImageFormat.videoExtensions[ext] { self = .other(video) }
        else { self = .notAnImage }
    }
}
