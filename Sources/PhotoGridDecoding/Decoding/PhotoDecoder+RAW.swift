import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Raw files (`RAW`): the camera's preview for tiles and the first picture of the photo view, the
/// raw data developed only for a view that asks for more than the preview has.
extension PhotoDecoder {
    /// A short side at least this large is a view's, not a tile's: only then is a raw file
    /// developed (a second or more a file), never for a screen of tiles.
    static let rawDevelopmentSize = 720

    /// `data`, a raw file of `kind` ("CR2"), upright, its short side between `size` and `limit`
    /// where the picture allows.
    package static func decodeRAW(_ kind: String, _ data: [UInt8], covering size: Int, atMost limit: Int,
                          gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        do {
            return try decodeRAW(data, covering: size, atMost: limit, gate: gate, kind: kind)
        } catch .corruptFile(format: "raw", let detail) {
            // Named by its kind: "corrupt CR2".
            throw .corruptFile(format: kind, detail)
        }
    }

    private static func decodeRAW(_ data: [UInt8], covering size: Int, atMost limit: Int, gate: MemoryGate,
                                  kind: String) throws(DecodeError) -> DecodedImage {
        let (header, preview) = try RAW.preview(data)
        let short = min(header.width, header.height)
        if let preview {
            let (image, turned) = try upright(preview, header: header, covering: size, atMost: limit, gate: gate)
            let previewShort = min(turned.width, turned.height)
            // The preview is enough: it covers what is asked, or what is asked is a tile's.
            if previewShort >= min(size, short) || size < rawDevelopmentSize {
                // A preview smaller than a tile (old cameras' 160-pixel ones) is all a tile gets:
                // said to be complete, or the pipeline would keep asking for more.
                return DecodedImage(image: image, origin: .file(scaleEighths: 8, scans: 1),
                                    isComplete: previewShort >= short || previewShort < size)
            }
        } else if size < rawDevelopmentSize {
            throw RAW.noPreview(kind, make: header.make)
        }
        // Developed, at half size where half covers what is asked.
        let half = short / 2 >= size
        let pixels = header.width * header.height
        let bytes = data.count * 2 + pixels * 2 + (half ? pixels * 2 : pixels * 8) + pixels * 3 / (half ? 4 : 1)
        return try gate.run(bytes: bytes) { () throws(DecodeError) -> DecodedImage in
            let developed = try RAW.develop(data, half: half)
            return DecodedImage(image: scaled(developed, shortSide: limit), origin: .file(scaleEighths: half ? 4 : 8, scans: 1),
                                isComplete: !half && min(developed.width, developed.height) <= limit)
        }
    }

    /// The preview decoded (a JPEG at the scale asked for), turned by the raw file's orientation
    /// unless the JPEG carried one of its own, and its size upright before scaling.
    private static func upright(_ preview: RAW.Preview, header: RAW.Header, covering size: Int, atMost limit: Int,
                                gate: MemoryGate) throws(DecodeError) -> (RGBImage, (width: Int, height: Int)) {
        switch preview {
        case .jpeg(let jpeg):
            let own = PhotoInfo.read(jpeg)
            let orientation = (own?.orientation ?? .up) == .up ? header.orientation : .up
            let stored = (own?.width ?? 0, own?.height ?? 0)
            let decoded = try PhotoDecoder(gate: gate).decode(jpeg, covering: size, atMost: limit)
            return (orientation.apply(to: decoded.image), orientation.displaySize(width: stored.0, height: stored.1))
        case .pixels(let image):
            let turned = header.orientation.apply(to: image)
            return (scaled(turned, shortSide: limit), (turned.width, turned.height))
        }
    }

    /// A raw file's details. Most raw files are TIFFs inside (CR2, NEF, ARW, DNG, PEF, SRW): their
    /// EXIF is read from the first 2 MB, as a JPEG's is, and the size is left to the picture
    /// (reading 30 MB a file for the date order of a card would take minutes). The others (CR3,
    /// RAF, RW2, ORF) are read whole by LibRaw for the camera and the size.
    static func rawInfo(_ file: OpenFile) -> PhotoInfo? {
        guard let head = try? file.head(2 << 20) else { return nil }
        if TIFF.isTIFF(head) {
            var info = PhotoInfo(width: nil, height: nil, exif: head, xmp: nil)
            info.orientation = .up
            return info
        }
        guard let data = try? file.all(), let header = try? RAW.readHeader(data) else { return nil }
        var info = PhotoInfo()
        (info.width, info.height) = (header.width, header.height)
        if !header.make.isEmpty { info.make = header.make }
        if !header.model.isEmpty { info.model = header.model }
        return info
    }
}
