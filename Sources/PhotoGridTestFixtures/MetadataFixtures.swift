import PhotoGridCore
import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridGallery
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem
import PhotoGridTerminal
import PhotoGridSamples
import PhotoGridLoading
import PhotoGridDiskCache

/// JPEG files with known metadata for the metadata tests, made with the sample generator's writers.
package enum MetadataFixtures {
    /// Every field the details panel shows, in EXIF.
    package static func allFields(bigEndian: Bool = false, caption: String? = "Evening over the bay",
                          thumbnail: [UInt8]? = nil) -> ExifFields {
        ExifFields(orientation: 6, dateTimeOriginal: "2024:07:14 19:42:05", imageDescription: caption,
                   make: "Photogrid", model: "Sample One", latitude: -33.8568, longitude: 151.2153,
                   exposureTime: .init(1, 250), fNumber: .init(28, 10), iso: 400, focalLength: .init(35, 1),
                   lensMake: "Sigma", lensModel: "35mm F1.4 DG HSM | Art", thumbnail: thumbnail, bigEndian: bigEndian)
    }

    /// A small JPEG (stored 48x32) with the given EXIF, XMP caption and IPTC caption.
    package static func jpeg(exif: ExifFields? = nil, xmp: String? = nil, iptc: String? = nil,
                     iptcEncoding: IPTCBuilder.Encoding = .utf8, progressive: Bool = false) throws -> [UInt8] {
        let jpeg = try JPEG.encode(TestImages.gradient(width: 48, height: 32), quality: 80, progressive: progressive,
                                   app1: exif.map(ExifBuilder.app1))
        var segments: [(marker: UInt8, payload: [UInt8])] = []
        if let xmp { segments.append((0xE1, XMPBuilder.app1(description: xmp))) }
        if let iptc { segments.append((0xED, IPTCBuilder.app13(caption: iptc, encoding: iptcEncoding))) }
        return JPEGSegmentsWriter.insert(segments: segments, into: jpeg)
    }

    /// Where the SOS marker is: everything metadata readers look at lies before it.
    package static func startOfScan(_ jpeg: [UInt8]) -> Int? {
        var at = 2
        while at <= jpeg.count - 4, jpeg[at] == 0xFF {
            if jpeg[at + 1] == 0xDA { return at }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return nil
    }

    /// A JPEG made of exactly these segments (marker and payload, lengths computed), then EOI.
    package static func segments(_ list: [(UInt8, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for (marker, payload) in list {
            out += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return out + [0xFF, 0xD9]
    }

    /// A baseline SOF0 payload: 8-bit, the size, three components.
    package static func sof(width: Int, height: Int) -> [UInt8] {
        [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3,
         1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    }

    package static let darktable = """
    <?xml version="1.0" encoding="UTF-8"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:darktable="http://darktable.sf.net/"
        xmp:Rating="3"
        darktable:history_end="2">
       <darktable:history>
        <rdf:Seq>
         <rdf:li darktable:operation="exposure" darktable:enabled="1"/>
        </rdf:Seq>
       </darktable:history>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """
}
