import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Cameras' raw files, through LibRaw (`RAW`, `PhotoDecoder.decodeRAW`): the camera's preview,
/// developed where a view needs more. Known by their names (many are TIFFs inside), and two by
/// their first bytes: Canon's CR3, ISO media of brand `crx ` (which would otherwise be taken for
/// an MP4 video), and Fujifilm's RAF.
struct RAWFormat: FormatReader {
    /// Raw files LibRaw reads, of the cameras most in use.
    static let kinds = ["dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "raf",
                        "pef", "srw", "3fr", "iiq", "erf", "mos", "mrw", "x3f", "rwl", "raw"]

    let extensions: [String: ImageFormat] = Dictionary(uniqueKeysWithValues: RAWFormat.kinds.map { ($0, .raw($0.uppercased())) })

    func format(of head: [UInt8]) -> ImageFormat? {
        if head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8), head[8..<12].elementsEqual("crx ".utf8) { return .raw("CR3") }
        if head.starts(with: Array("FUJIFILMCCD-RAW".utf8)) { return .raw("RAF") }
        return nil
    }

    func reads(_ format: ImageFormat) -> Bool { format.isRaw }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        try PhotoDecoder.decodeRAW(format.name, data, covering: size, atMost: limit, gate: context.gate)
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        let header = try RAW.readHeader(data)
        return (header.width, header.height)
    }

    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? { PhotoDecoder.rawInfo(file) }
}
