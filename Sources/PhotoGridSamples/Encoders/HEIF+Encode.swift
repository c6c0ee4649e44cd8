import CHeif
import PhotoGridCore

/// The test files' HEIF encoder: tests and the sample gallery make their files with the library
/// that reads them. Kept out of the shipped library, which only decodes HEIF.
extension HEIF {
    /// libheif's functions for encoding, loaded as the decoder loads them (`HEIF.swift`).
    private static var heif: pg_heif { pg_heif_load()!.pointee }
    private static var library: pg_heif? { pg_heif_load()?.pointee }

    /// A HEIC (or, with `avif`, an AVIF) of `image`: turned for display by `orientation` (an EXIF
    /// value, written as `irot`/`imir` boxes), with a thumbnail fitting `thumbnail` pixels, the
    /// `exif` TIFF data, `alpha`, and samples of `bitDepth` bits. For tests and the sample gallery,
    /// which make their files with the library that reads them; nil if libheif cannot.
    /// `matrix` and `fullRange` go into its `nclx` profile: the YCbCr the codec stores; so do
    /// `primaries` and `transfer` when given (H.273's codes: 12 and 13 say Display P3).
    package static func encode(_ image: RGBImage, avif: Bool = false, quality: Int = 90, orientation: Int = 1,
                              thumbnail: Int? = nil, exif: [UInt8]? = nil, alpha: [UInt8]? = nil, bitDepth: Int = 8,
                              matrix: Int = 6, fullRange: Bool = true, primaries: Int? = nil, transfer: Int? = nil) -> [UInt8]? {
        guard library != nil, let context = heif.heif_context_alloc() else { return nil }
        defer { heif.heif_context_free(context) }
        var encoder: OpaquePointer?
        guard heif.heif_context_get_encoder_for_format(context, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder).code == heif_error_Ok,
              let encoder else { return nil }
        defer { heif.heif_encoder_release(encoder) }
        _ = heif.heif_encoder_set_lossy_quality(encoder, Int32(quality))
        let deep = bitDepth > 8, channels = alpha == nil ? 3 : 4
        let chroma = deep ? (alpha == nil ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RRGGBBAA_LE)
                          : (alpha == nil ? heif_chroma_interleaved_RGB : heif_chroma_interleaved_RGBA)
        var picture: OpaquePointer?
        guard heif.heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, chroma, &picture).code == heif_error_Ok,
              let picture else { return nil }
        defer { heif.heif_image_release(picture) }
        guard heif.heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), Int32(bitDepth)).code == heif_error_Ok else { return nil }
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane(picture, heif_channel_interleaved, &stride) else { return nil }
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<channels {
                    let value = c < 3 ? Int(image.pixels[(y * image.width + x) * 3 + c]) : Int(alpha![y * image.width + x])
                    if deep {
                        // 8 bits to `bitDepth` bits: the same level, its top bits repeated below.
                        let wide = (value << (bitDepth - 8)) | (value >> (16 - bitDepth))
                        let at = y * Int(stride) + (x * channels + c) * 2
                        plane[at] = UInt8(wide & 0xFF); plane[at + 1] = UInt8(wide >> 8)
                    } else {
                        plane[y * Int(stride) + x * channels + c] = UInt8(value)
                    }
                }
            }
        }
        guard let nclx = heif.heif_nclx_color_profile_alloc() else { return nil }
        defer { heif.heif_nclx_color_profile_free(nclx) }
        _ = heif.heif_nclx_color_profile_set_matrix_coefficients(nclx, UInt16(matrix))
        nclx.pointee.full_range_flag = fullRange ? 1 : 0
        if let primaries { nclx.pointee.color_primaries = heif_color_primaries(rawValue: UInt32(primaries)) }
        if let transfer { nclx.pointee.transfer_characteristics = heif_transfer_characteristics(rawValue: UInt32(transfer)) }
        guard heif.heif_image_set_nclx_color_profile(picture, nclx).code == heif_error_Ok else { return nil }
        guard let options = heif.heif_encoding_options_alloc() else { return nil }
        defer { heif.heif_encoding_options_free(options) }
        // Both the conversion to YCbCr and the profile written follow this (libheif 1.15 converts
        // with its default otherwise, whatever the picture's own profile says).
        options.pointee.output_nclx_profile = nclx
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32((1...8).contains(orientation) ? orientation : 1))
        var handle: OpaquePointer?
        guard heif.heif_context_encode_image(context, picture, encoder, options, &handle).code == heif_error_Ok, let handle else { return nil }
        defer { heif.heif_image_handle_release(handle) }
        if let thumbnail {
            var small: OpaquePointer?
            guard heif.heif_context_encode_thumbnail(context, picture, handle, encoder, options, Int32(thumbnail), &small).code == heif_error_Ok else { return nil }
            if let small { heif.heif_image_handle_release(small) }
        }
        if let exif, exif.withUnsafeBytes({ heif.heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) }).code != heif_error_Ok {
            return nil
        }
        let path = "/tmp/photogrid-heif-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max)).tmp"
        defer { RawPath(path).remove() }
        guard heif.heif_context_write_to_file(context, path).code == heif_error_Ok else { return nil }
        return try? FileReader.read(RawPath(path))
    }
}
