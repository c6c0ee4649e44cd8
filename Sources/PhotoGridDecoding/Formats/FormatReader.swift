import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What photogrid knows of a kind of file, in the kind's own file: its names, its first bytes,
/// how it is decoded to a tile, measured and described. `Formats.readers` lists them, a line
/// each, in the order they are asked; a format is added with a file and that line (house style
/// 24, after Nuke's `ImageDecoderRegistry` and timg's `ImageSource::Create`).
package protocol FormatReader: Sendable {
    /// The formats its names say, by lower-case extension.
    var extensions: [String: ImageFormat] { get }
    /// The format a file's first bytes (`Formats.headLength` of them) say it is, if one of its own.
    func format(of head: [UInt8]) -> ImageFormat?
    /// Whether it reads `format`.
    func reads(_ format: ImageFormat) -> Bool
    /// The media type a server sends the format as.
    func mediaType(_ format: ImageFormat) -> String
    /// The picture in `data`, upright, its short side between `size` and `limit` where the
    /// picture allows, under the context's memory gate.
    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage
    /// Its size as displayed, from its header.
    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int)
    /// Its details (size, EXIF, XMP), with as little of the file read as it allows.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo?
    /// Its embedded thumbnail, upright, when it has one: a first picture before the decode.
    func thumbnail(_ data: [UInt8], _ format: ImageFormat) -> RGBImage?
}

extension FormatReader {
    package func mediaType(_ format: ImageFormat) -> String { "application/octet-stream" }
    package func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        throw .unsupportedFormat(format.name)
    }
    package func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        throw .unsupportedFormat(format.name)
    }
    package func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? { nil }
    package func thumbnail(_ data: [UInt8], _ format: ImageFormat) -> RGBImage? { nil }
}

/// What a decode may use: the memory gate its bytes pass, and whether an embedded thumbnail
/// large enough may stand in for the picture.
package struct DecodeContext: Sendable {
    package var gate: MemoryGate
    package var thumbnails: Bool

    package init(gate: MemoryGate = .decodes, thumbnails: Bool = true) {
        self.gate = gate
        self.thumbnails = thumbnails
    }
}

/// Every kind of file photogrid knows, asked in this order: by their first bytes the pictures
/// first, then a raw file's container (CR3 is ISO media, as videos are), then videos, then the
/// picture formats shown as a tile that says why not.
package enum Formats {
    package static let readers: [any FormatReader] = [
        JPEGFormat(),
        PNGFormat(),
        WebPFormat(),
        GIFFormat(),
        TIFFFormat(),
        JXLFormat(),
        HEIFFormat(),
        RAWFormat(),
        VideoFormat(),
        UndecodedFormats(),
    ]

    /// Bytes of a file's head its format is known by.
    package static let headLength = 16

    /// Every format a name says, by its lower-case extension.
    static let byExtension: [String: ImageFormat] = readers.reduce(into: [:]) { all, reader in
        all.merge(reader.extensions) { first, _ in first }
    }

    /// The format a file's name says; `notAnImage` for a name that says none.
    package static func named(_ lowercasedExtension: String) -> ImageFormat {
        byExtension[lowercasedExtension] ?? .notAnImage
    }

    /// The format a file's first bytes say; nil for anything that is not a picture or video.
    package static func format(of head: [UInt8]) -> ImageFormat? {
        let head = Array(head.prefix(headLength))
        for reader in readers { if let format = reader.format(of: head) { return format } }
        return nil
    }

    /// The reader of `format`; nil for `notAnImage`.
    package static func reader(for format: ImageFormat) -> (any FormatReader)? {
        readers.first { $0.reads(format) }
    }
}

extension ImageFormat {
    /// The format a file's name says (`Formats.named`).
    package static func named(_ lowercasedExtension: String) -> ImageFormat { Formats.named(lowercasedExtension) }
    package init(fileExtension: String) { self = Formats.named(fileExtension) }
    /// What a file's first bytes say it is, for files whose name says nothing: nil for anything
    /// that is not a picture or a video.
    package init?(content head: [UInt8]) {
        guard let format = Formats.format(of: head) else { return nil }
        self = format
    }

    /// The media type a server sends the file as.
    package var mediaType: String { Formats.reader(for: self)?.mediaType(self) ?? "application/octet-stream" }
}

extension Photo {
    /// A photo in a file, its format by its name.
    package init(path: RawPath, relativePath: RawPath, fileSize: Int = 0, stamp: FileStamp? = nil) {
        self.init(path: path, relativePath: relativePath, fileSize: fileSize, format: Formats.named(path.lowercasedExtension), stamp: stamp)
    }
}

/// What a picture's embedded EXIF says of its orientation.
func orientation(of found: EmbeddedMetadata.Found) -> Orientation {
    found.exif.map { ExifInfo.parse($0).orientation } ?? .up
}
