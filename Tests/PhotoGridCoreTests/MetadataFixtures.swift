@testable import PhotoGridCore
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridSamples
@testable import PhotoGridLoading
@testable import PhotoGridDiskCache

/// JPEG files with known metadata for the metadata tests, made with the sample generator's writers.
enum MetadataFixtures {
    /// Every field the details panel shows, in EXIF.
    static func allFields(bigEndian: Bool = false, caption: String? = "Evening over the bay",
                          thumbnail: [UInt8]? = nil) -> ExifFields {
        ExifFields(orientation: 6, dateTimeOriginal: "2024:07:14 19:42:05", imageDescription: caption,
                   make: "Photogrid", model: "Sample One", latitude: -33.8568, longitude: 151.2153,
                   exposureTime: .init(1, 250), fNumber: .init(28, 10), iso: 400, focalLength: .init(35, 1),
                   lensMake: "Sigma", lensModel: "35mm F1.4 DG HSM | Art", thumbnail: thumbnail, bigEndian: bigEndian)
    }

    /// A small JPEG (stored 48x32) with the given EXIF, XMP caption and IPTC caption.
    static func jpeg(exif: ExifFields? = nil, xmp: String? = nil, iptc: String? = nil,
                     iptcEncoding: IPTCBuilder.Encoding = .utf8, progressive: Bool = false) throws -> [UInt8] {
        let jpeg = try JPEG.encode(TestImages.gradient(width: 48, height: 32), quality: 80, progressive: progressive,
                                   app1: exif.map(ExifBuilder.app1))
        var segments: [(marker: UInt8, payload: [UInt8])] = []
        if let xmp { segments.append((0xE1, XMPBuilder.app1(description: xmp))) }
        if let iptc { segments.append((0xED, IPTCBuilder.app13(caption: iptc, encoding: iptcEncoding))) }
        return JPEGSegmentsWriter.insert(segments: segments, into: jpeg)
    }

    /// Where the SOS marker is: everything metadata readers look at lies before it.
    static func startOfScan(_ jpeg: [UInt8]) -> Int? {
        var at = 2
        while at <= jpeg.count - 4, jpeg[at] == 0xFF {
            if jpeg[at + 1] == 0xDA { return at }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return nil
    }

    /// A JPEG made of exactly these segments (marker and payload, lengths computed), then EOI.
    static func segments(_ list: [(UInt8, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in list {
            out += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return out + [0xFF, 0xD9]
    }

    /// A baseline SOF0 payload: 8-bit, the size, three components.
    static func sof(width: Int, height: Int) -> [UInt8] {
        [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3,
         1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    }
}
