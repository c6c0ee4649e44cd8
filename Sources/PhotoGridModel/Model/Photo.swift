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

    /// A photo in a file, in `format` (by its name, for a photo made without one:
    /// `Photo(path:relativePath:)` in PhotoGridDecoding, where the formats' readers are).
    package init(path: RawPath, relativePath: RawPath, fileSize: Int = 0, format: ImageFormat, stamp: FileStamp? = nil) {
        source = .file(path)
        self.relativePath = relativePath
        self.format = format
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

/// What a file is, by its name or its first bytes: a picture photogrid decodes (named by its
/// format: "JPEG", "PNG"), a camera's raw file ("CR3", "NEF"), a video ("MP4 video"), a picture
/// format photogrid knows and does not decode ("PSD"), or none of those. What each format's
/// names and bytes are, and how it is decoded, is its reader's, one file a format
/// (`Formats.readers`, PhotoGridDecoding); here only what a format is.
package struct ImageFormat: Hashable, Sendable {
    package enum Family: Hashable, Sendable {
        /// A picture photogrid decodes.
        case picture
        /// A camera's raw file: LibRaw reads it.
        case raw
        /// A video: a frame from ffmpeg, and Enter plays it.
        case video
        /// A picture photogrid knows and does not decode: a tile that says so.
        case other
        case notAnImage
    }

    /// For messages: "JPEG", "CR3", "MP4 video", "PSD".
    package let name: String
    package let family: Family

    package init(_ name: String, _ family: Family) {
        self.name = name
        self.family = family
    }

    package static let notAnImage = ImageFormat("", .notAnImage)
    /// A camera's raw file of this kind ("CR3").
    package static func raw(_ kind: String) -> ImageFormat { ImageFormat(kind, .raw) }
    /// A video of this kind ("MP4 video").
    package static func video(_ name: String) -> ImageFormat { ImageFormat(name, .video) }
    /// A picture format photogrid does not decode ("PSD").
    package static func other(_ name: String) -> ImageFormat { ImageFormat(name, .other) }

    /// Formats photogrid decodes.
    package var isDecoded: Bool { family == .picture || family == .raw }
    /// A camera's raw file.
    package var isRaw: Bool { family == .raw }
    /// A video: a tile that says so, and Enter plays it (`Player`).
    package var isVideo: Bool { family == .video }
}
