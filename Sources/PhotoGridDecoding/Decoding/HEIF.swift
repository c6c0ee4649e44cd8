import CHeif
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libheif: the only Swift file that calls it. HEIC (HEVC, through libde265) and AVIF (AV1,
/// through dav1d or libaom), 8 to 12 bits, any chroma, alpha, grid images. libheif applies the
/// container's own transforms (`irot`, `imir`, `clap`) while it decodes: the picture comes out
/// upright and EXIF's orientation tag must not be applied again (ISO/IEC 23008-12 makes the
/// container's transforms the ones that count).
package enum HEIF {
    /// libheif's functions, loaded on first use (Sources/CHeif says why it is not linked); nil
    /// when libheif is not installed.
    private static let library: pg_heif? = pg_heif_load()?.pointee
    /// The loaded functions. Only reached after an entry point (`withPrimary`, `encode`) has
    /// checked `library`.
    private static var heif: pg_heif { library! }
    /// Whether opaque HEVC pictures go through photogrid's decoder plugin (Sources/CHeif/hevc_planes.c):
    /// with libheif up to 1.15, whose decoders can be registered for one context.
    package static var decodesHEVCPlanes: Bool { pg_heif_hevc_planes(1) != nil }

    package struct Header: Sendable {
        /// As displayed: after the container's rotation.
        package var width: Int, height: Int
        package var hasAlpha: Bool
        /// Luma bits per sample (8, 10, 12); 0 when the file does not say.
        package var bitDepth: Int
        /// The largest embedded thumbnail's size, as displayed; nil when there is none.
        package var thumbnail: (width: Int, height: Int)?
        /// The primary picture's ICC profile (`iccProfile`), if it has one.
        package var profile: [UInt8]?
        package var size: (width: Int, height: Int) { (width, height) }
    }

    package static func readHeader(_ data: [UInt8], maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> Header {
        try withPrimary(data, maxPixels: maxPixels) { handle, header, _ throws(DecodeError) in header }
    }

    /// The primary picture, upright, transparency composited onto `PNG.background`, each side
    /// divided by `shrink` as it is copied out of libheif (each pixel the mean of a block: no copy
    /// at full size; by four or more, HEVC without its in-loop filters); its largest thumbnail
    /// instead when `thumbnail` is true (nil when there is none). 10- and 12-bit samples are reduced to 8 by libheif (`convert_hdr_to_8bit`), which
    /// scales them rather than dropping their low bits.
    /// `libheifsOwn` decodes HEVC through libheif's own decoder and conversions, for tests to
    /// compare with.
    package static func decode(_ data: [UInt8], thumbnail: Bool = false, shrink: Int = 1,
                              maxPixels: Int = JPEG.defaultMaxPixels, libheifsOwn: Bool = false) throws(DecodeError) -> RGBImage? {
        let format = formatName(data)
        // HEVC's planes come straight from libde265 (Sources/CHeif/hevc_planes.c); shrunk by
        // four or more, without its in-loop filters: what they smooth is averaged away.
        let planes = thumbnail || libheifsOwn ? nil : pg_heif_hevc_planes(shrink >= 4 ? 0 : 1)
        return try withPrimary(data, maxPixels: maxPixels, planes: planes) { handle, header, planar throws(DecodeError) -> RGBImage? in
            if planar { return try decodePlanes(handle, format: format, shrink: shrink) }
            guard thumbnail else { return try decode(handle, format: format, shrink: shrink) }
            guard let small = largestThumbnail(handle) else { return nil }
            defer { heif.heif_image_handle_release(small) }
            return try decode(small, format: format, shrink: 1)
        }
    }

    /// The primary picture's EXIF (as TIFF data, from its header on) and XMP packet.
    package static func metadata(_ data: [UInt8]) -> (exif: [UInt8]?, xmp: [UInt8]?) {
        let found = try? withPrimary(data, maxPixels: .max) { handle, _, _ throws(DecodeError) -> ([UInt8]?, [UInt8]?) in
            var exif: [UInt8]?, xmp: [UInt8]?
            for id in blocks(handle, type: nil) {
                let type = heif.heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
                let content = heif.heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
                let size = heif.heif_image_handle_get_metadata_size(handle, id)
                guard size > 0, size <= 16 << 20 else { continue }
                var bytes = [UInt8](repeating: 0, count: size)
                guard bytes.withUnsafeMutableBytes({ heif.heif_image_handle_get_metadata(handle, id, $0.baseAddress) }).code == heif_error_Ok else { continue }
                if type == "Exif", exif == nil, bytes.count > 4 {
                    // An Exif item starts with the offset of the TIFF header past its own four bytes.
                    let offset = 4 + Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
                    if offset < bytes.count { exif = Array(bytes[offset...]) }
                } else if type == "mime", content == "application/rdf+xml", xmp == nil {
                    xmp = bytes
                }
            }
            return (exif, xmp)
        }
        return found ?? (nil, nil)
    }

    /// The primary picture's ICC profile, as its header has it.
    package static func profile(_ data: [UInt8]) -> [UInt8]? { (try? readHeader(data, maxPixels: .max))?.profile }

    /// A picture's ICC profile (a `colr` box of type `prof` or `rICC`: iPhones write Display
    /// P3's); nil when it has none, or only an `nclx` description.
    private static func iccProfile(_ handle: OpaquePointer) -> [UInt8]? {
        let type = heif.heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif.heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0, size <= ColourProfile.maxProfileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard bytes.withUnsafeMutableBytes({ heif.heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }).code == heif_error_Ok else {
            return nil
        }
        return bytes
    }

    /// A picture described by `nclx` rather than a profile (libavif's and many encoders' AVIFs,
    /// Display P3 ones included): the profile it stands for, where that is not sRGB.
    private static func nclxProfile(_ handle: OpaquePointer) -> [UInt8]? {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif.heif_image_handle_get_color_profile_type(handle) == heif_color_profile_type_nclx,
              heif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let profile = nclx else { return nil }
        defer { heif.heif_nclx_color_profile_free(profile) }
        return ColourProfile.described(primaries: Int(profile.pointee.color_primaries.rawValue),
                                       transfer: Int(profile.pointee.transfer_characteristics.rawValue))
    }

    private static func blocks(_ handle: OpaquePointer, type: String?) -> [heif_item_id] {
        let count = Int(heif.heif_image_handle_get_number_of_metadata_blocks(handle, type))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: min(count, 64))
        let got = Int(heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(ids.count)))
        return Array(ids.prefix(got))
    }

    private static func largestThumbnail(_ handle: OpaquePointer) -> OpaquePointer? {
        let count = Int(heif.heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let got = Int(heif.heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(ids.count)))
        var best: OpaquePointer?, bestPixels = 0
        for id in ids.prefix(got) {
            var small: OpaquePointer?
            guard heif.heif_image_handle_get_thumbnail(handle, id, &small).code == heif_error_Ok, let small else { continue }
            let pixels = Int(heif.heif_image_handle_get_width(small)) * Int(heif.heif_image_handle_get_height(small))
            if pixels > bestPixels, pixels <= 4_000_000 {
                if let best { heif.heif_image_handle_release(best) }
                (best, bestPixels) = (small, pixels)
            } else {
                heif.heif_image_handle_release(small)
            }
        }
        return best
    }

    private static func decode(_ handle: OpaquePointer, format: String, shrink: Int) throws(DecodeError) -> RGBImage {
        // An opaque HEIC comes out of the codec as YCbCr planes: they are averaged in blocks and
        // converted to RGB here, at the size wanted, rather than by libheif at full size into a
        // buffer three times the planes' size (a fifth of a decode's time, and its largest buffer).
        if format == "HEIF", heif.heif_image_handle_has_alpha_channel(handle) == 0, planesComeAsCoded(handle),
           let image = try decodePlanar(handle, format: format, shrink: shrink) {
            return image
        }
        guard let options = heif.heif_decoding_options_alloc() else { throw .outOfMemory }
        defer { heif.heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        let alpha = heif.heif_image_handle_has_alpha_channel(handle) != 0
        let premultiplied = heif.heif_image_handle_is_premultiplied_alpha(handle) != 0
        var picture: OpaquePointer?
        try check(heif.heif_decode_image(handle, &picture, heif_colorspace_RGB,
                                    alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options), format: format)
        guard let picture else { throw .corruptFile(format: format, "no picture") }
        defer { heif.heif_image_release(picture) }
        let width = Int(heif.heif_image_get_width(picture, heif_channel_interleaved))
        let height = Int(heif.heif_image_get_height(picture, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif.heif_image_get_plane_readonly(picture, heif_channel_interleaved, &stride) else {
            throw .corruptFile(format: format, "no pixels")
        }
        let step = max(1, min(shrink, width, height))
        var image = RGBImage(width: width / step, height: height / step)
        let background = [PNG.background.r, PNG.background.g, PNG.background.b]
        let channels = alpha ? 4 : 3, area = step * step
        image.pixels.withUnsafeMutableBufferPointer { out in
            var sums = [Int](repeating: 0, count: image.width * 3)
            for oy in 0..<image.height {
                for i in 0..<sums.count { sums[i] = 0 }
                for y in (oy * step)..<(oy * step + step) {
                    let row = plane + y * Int(stride)
                    for x in 0..<(image.width * step) {
                        let p = x * channels, o = (x / step) * 3
                        guard alpha else {
                            sums[o] += Int(row[p]); sums[o + 1] += Int(row[p + 1]); sums[o + 2] += Int(row[p + 2])
                            continue
                        }
                        let a = Int(row[p + 3])
                        for c in 0..<3 {
                            let colour = premultiplied ? Int(row[p + c]) * 255 : Int(row[p + c]) * a
                            sums[o + c] += min(255, (colour + background[c] * (255 - a) + 127) / 255)
                        }
                    }
                }
                let base = oy * image.width * 3
                for i in 0..<sums.count { out[base + i] = UInt8((sums[i] + area / 2) / area) }
            }
        }
        return image
    }

    /// Whether libheif 1.15 hands out YCbCr 4:2:0 planes as the codec made them. It does not when
    /// the container's `nclx` names another matrix or range than its default (BT.601, full
    /// range): it then converts the planes to that default itself (an AVIF with BT.709 in `colr`,
    /// asked for as YCbCr, came back in BT.601), which would be read here with the wrong matrix.
    private static func planesComeAsCoded(_ handle: OpaquePointer) -> Bool {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let profile = nclx else { return true }
        defer { heif.heif_nclx_color_profile_free(profile) }
        return [5, 6].contains(profile.pointee.matrix_coefficients.rawValue) && profile.pointee.full_range_flag != 0
    }

    /// The picture as YCbCr 4:2:0 planes of 8 to 16 bits (what cameras and phones store; libheif
    /// resamples the chroma of the rare 4:2:2 or 4:4:4 file, and gives grey pictures neutral
    /// chroma), each side divided by `shrink`, converted with the matrix and range its `nclx`
    /// profile names (libheif's default when it has none: BT.601, full range). nil when libheif
    /// gives anything else (then its RGB conversion is used).
    private static func decodePlanar(_ handle: OpaquePointer, format: String, shrink: Int) throws(DecodeError) -> RGBImage? {
        var picture: OpaquePointer?
        try check(heif.heif_decode_image(handle, &picture, heif_colorspace_YCbCr, heif_chroma_420, nil), format: format)
        guard let picture else { throw .corruptFile(format: format, "no picture") }
        defer { heif.heif_image_release(picture) }
        let space = heif.heif_image_get_colorspace(picture)
        guard space == heif_colorspace_YCbCr || space == heif_colorspace_monochrome else { return nil }
        let grey = space == heif_colorspace_monochrome || heif.heif_image_get_chroma_format(picture) == heif_chroma_monochrome
        return try convert(picture, of: handle, format: format, shrink: shrink, channels: (heif_channel_Y, heif_channel_Cb, heif_channel_Cr), grey: grey)
    }

    /// The picture as the planes decoder hands it out (Y, Cb and Cr as planar RGB 4:4:4, or Y
    /// alone), after libheif's grid assembly and transforms, converted here with the matrix and
    /// range of the file's `colr` box, else the stream's own.
    private static func decodePlanes(_ handle: OpaquePointer, format: String, shrink: Int) throws(DecodeError) -> RGBImage {
        var picture: OpaquePointer?
        // Undefined colour space and chroma: libheif converts nothing (heif_context.cc, 1.15).
        try check(heif.heif_decode_image(handle, &picture, heif_colorspace_undefined, heif_chroma_undefined, nil), format: format)
        guard let picture else { throw .corruptFile(format: format, "no picture") }
        defer { heif.heif_image_release(picture) }
        let grey = heif.heif_image_get_colorspace(picture) == heif_colorspace_monochrome
        guard let image = try convert(picture, of: handle, format: format, shrink: shrink,
                                      channels: (grey ? heif_channel_Y : heif_channel_R, heif_channel_G, heif_channel_B), grey: grey) else {
            throw .corruptFile(format: format, "no pixels")
        }
        return image
    }

    /// A decoded picture's Y, Cb and Cr (or Y alone) in `channels`, shrunk and converted to RGB
    /// with the picture's matrix and range; nil when its chroma planes are missing.
    private static func convert(_ picture: OpaquePointer, of handle: OpaquePointer, format: String, shrink: Int,
                                channels: (y: heif_channel, cb: heif_channel, cr: heif_channel), grey: Bool) throws(DecodeError) -> RGBImage? {
        let width = Int(heif.heif_image_get_width(picture, channels.y)), height = Int(heif.heif_image_get_height(picture, channels.y))
        let bits = Int(heif.heif_image_get_bits_per_pixel_range(picture, channels.y))
        var yStride: Int32 = 0, cbStride: Int32 = 0, crStride: Int32 = 0
        guard width > 0, height > 0, (1...16).contains(bits), let yPlane = heif.heif_image_get_plane_readonly(picture, channels.y, &yStride) else {
            throw .corruptFile(format: format, "no pixels")
        }
        let (matrix, fullRange) = colourOf(handle, picture)
        var planes = YCbCrPlanes(width: width, height: height, bits: bits, luma: .init(base: yPlane, stride: Int(yStride)),
                                 chroma: nil, alpha: nil, matrix: matrix, fullRange: fullRange)
        if !grey {
            guard let cb = heif.heif_image_get_plane_readonly(picture, channels.cb, &cbStride),
                  let cr = heif.heif_image_get_plane_readonly(picture, channels.cr, &crStride) else { return nil }
            // The smaller of the two chroma planes: neither is read past its edge.
            let chromaWidth = Int(min(heif.heif_image_get_width(picture, channels.cb), heif.heif_image_get_width(picture, channels.cr)))
            let chromaHeight = Int(min(heif.heif_image_get_height(picture, channels.cb), heif.heif_image_get_height(picture, channels.cr)))
            guard chromaWidth > 0, chromaHeight > 0 else { return nil }
            planes.chroma = (.init(base: cb, stride: Int(cbStride)), .init(base: cr, stride: Int(crStride)), chromaWidth, chromaHeight)
        }
        return planes.rgb(shrink: shrink)
    }

    /// The matrix coefficients and range a picture's YCbCr is in: the container's `colr` box
    /// first, as ISO/IEC 23000-22 (MIAF) has it, then the codec's own; BT.601 full range when
    /// neither says.
    private static func colourOf(_ handle: OpaquePointer, _ picture: OpaquePointer) -> (matrix: Int, fullRange: Bool) {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok || heif.heif_image_get_nclx_color_profile(picture, &nclx).code == heif_error_Ok,
              let profile = nclx else { return (6, true) }
        defer { heif.heif_nclx_color_profile_free(profile) }
        return (Int(profile.pointee.matrix_coefficients.rawValue), profile.pointee.full_range_flag != 0)
    }

    /// The file's primary picture handle and header, the size checked against `maxPixels`
    /// before anything is decoded (a grid's canvas included).
    /// With `planes`, an opaque HEVC picture is decoded by that decoder (Sources/CHeif/hevc_planes.c),
    /// and `body` is told so: its planes must then be read with `decodePlanes`.
    private static func withPrimary<T>(_ data: [UInt8], maxPixels: Int, planes: OpaquePointer? = nil,
                                       _ body: (OpaquePointer, Header, _ planar: Bool) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard !data.isEmpty else { throw .empty }
        guard isHEIF(data) else { throw .unsupportedFormat("") }
        let format = formatName(data)
        guard library != nil else { throw .unsupportedFormat("\(format): libheif is not installed") }
        guard let context = heif.heif_context_alloc() else { throw .outOfMemory }
        defer { heif.heif_context_free(context) }
        // libheif's own ceiling on a side, below its default of 32768 (2^15): ours is in pixels.
        heif.heif_context_set_maximum_image_size_limit(context, 1 << 15)
        // The data stays valid through the whole decode: libheif reads it without a copy.
        let result = data.withUnsafeBytes { bytes in
            Result(catching: { () throws(DecodeError) -> T in
                try check(heif.heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), format: format)
                var handle: OpaquePointer?
                try check(heif.heif_context_get_primary_image_handle(context, &handle), format: format)
                guard let handle else { throw .corruptFile(format: format, "no primary picture") }
                defer { heif.heif_image_handle_release(handle) }
                var header = Header(width: Int(heif.heif_image_handle_get_width(handle)), height: Int(heif.heif_image_handle_get_height(handle)),
                                    hasAlpha: heif.heif_image_handle_has_alpha_channel(handle) != 0,
                                    bitDepth: max(0, Int(heif.heif_image_handle_get_luma_bits_per_pixel(handle))))
                guard header.width > 0, header.height > 0 else { throw .corruptFile(format: format, "no pixels") }
                guard header.width * header.height <= maxPixels else { throw .tooLarge }
                header.profile = iccProfile(handle) ?? nclxProfile(handle)
                if let small = largestThumbnail(handle) {
                    header.thumbnail = (Int(heif.heif_image_handle_get_width(small)), Int(heif.heif_image_handle_get_height(small)))
                    heif.heif_image_handle_release(small)
                }
                // Registered on this context only, and only for a picture without alpha: the
                // alpha path reads libheif's RGB, which these planes only pretend to be.
                var planar = false
                if let planes, format == "HEIF", !header.hasAlpha {
                    planar = heif.heif_register_decoder(context, planes).code == heif_error_Ok
                }
                return try body(handle, header, planar)
            })
        }
        return try result.get()
    }

    private static func check(_ error: heif_error, format: String) throws(DecodeError) {
        guard error.code != heif_error_Ok else { return }
        if error.subcode == heif_suberror_End_of_data { throw .truncatedFile(format: format) }
        if error.subcode == heif_suberror_Security_limit_exceeded { throw .tooLarge }
        if error.code == heif_error_Memory_allocation_error { throw .outOfMemory }
        if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype
            || error.subcode == heif_suberror_Unsupported_codec {
            throw .unsupportedFormat("\(format): " + (error.message.map { String(cString: $0) } ?? "unsupported feature"))
        }
        throw .corruptFile(format: format, error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
    }
}
