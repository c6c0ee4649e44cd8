import CLcms
import PhotoGridModel
import PhotoGridSystem

/// Little CMS: the only Swift file that calls it. A photo that carries an ICC profile of a wider
/// colour space (ProPhoto, Adobe RGB, Display P3) has its pixels converted to sRGB, which is what
/// terminals show: without it such a photo looks dull. Photos without a profile, and those whose
/// profile is sRGB (most cameras' and exports'), are left as they are, at no cost.
///
/// The conversion runs on the decoded picture after it is shrunk to what the tile or view keeps,
/// so it costs a tile's pixels, not the photo's. A transform is made once per profile and kept
/// (`cache`): a folder from one camera makes one.
package enum ColourProfile {
    /// A transform from a profile to sRGB, for 8-bit RGB. Made without lcms's one-pixel cache,
    /// which is not safe to share: workers use one transform at once.
    final class Transform: @unchecked Sendable {
        let handle: cmsHTRANSFORM
        init(_ handle: cmsHTRANSFORM) { self.handle = handle }
        deinit { cmsDeleteTransform(handle) }
    }

    /// Transforms by profile, and the profiles that need none (nil inside). A few profiles in a
    /// folder at most; the cache is emptied past `cacheLimit`, never grown without bound.
    private static let cache = Locked<[[UInt8]: Transform?]>([:])
    static let cacheLimit = 32

    /// Profiles larger than this are not read: a display profile is a few KB, a printer's with
    /// its tables some hundreds.
    static let maxProfileBytes = 4 << 20

    /// `image` in sRGB when `profile` describes another RGB space; as it was otherwise.
    package static func toSRGB(_ image: RGBImage, profile: [UInt8]?) -> RGBImage {
        guard let profile, let transform = transform(for: profile), image.width > 0, image.height > 0 else { return image }
        var converted = image
        converted.pixels.withUnsafeMutableBytes { bytes in
            // Rows are contiguous: the picture is one run of pixels.
            cmsDoTransform(transform.handle, bytes.baseAddress, bytes.baseAddress, cmsUInt32Number(image.width * image.height))
        }
        return converted
    }

    /// Whether a profile would change pixels: an RGB profile other than sRGB.
    package static func converts(_ profile: [UInt8]) -> Bool { transform(for: profile) != nil }

    static func transform(for profile: [UInt8]) -> Transform? {
        guard profile.count >= 132, profile.count <= maxProfileBytes else { return nil }
        if let known = cache.withLock({ $0[profile] }) { return known }
        let made = makeTransform(profile)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[profile] = .some(made)
        }
        return made
    }

    private static func makeTransform(_ profile: [UInt8]) -> Transform? {
        guard let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else { return nil }
        defer { cmsCloseProfile(source) }
        guard cmsGetColorSpace(source) == cmsSigRgbData, !isSRGB(source), let target = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(target) }
        let format = pg_lcms_rgb8()
        guard let handle = cmsCreateTransform(source, format, target, format, cmsUInt32Number(INTENT_PERCEPTUAL),
                                              cmsUInt32Number(cmsFLAGS_NOCACHE)) else { return nil }
        let transform = Transform(handle)
        // An sRGB profile under another name (Ghostscript's, a camera maker's) changes nothing:
        // known by what it does to the primaries, the greys and a few colours between.
        let probe: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 128, 128, 128, 200, 100, 50, 30, 60, 90, 64, 192, 160]
        var out = probe
        out.withUnsafeMutableBytes { cmsDoTransform(handle, probe, $0.baseAddress, cmsUInt32Number(probe.count / 3)) }
        return zip(probe, out).allSatisfy({ abs(Int($0) - Int($1)) <= 1 }) ? nil : transform
    }

    /// An sRGB profile by its description ("sRGB IEC61966-2.1", "sRGB built-in", "sRGB v4 ICC
    /// preference"): converting it to sRGB would change nothing but the time it takes.
    private static func isSRGB(_ profile: cmsHPROFILE) -> Bool {
        var text = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
        guard length > 0 else { return false }
        let description = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.lowercased()
        return description.hasPrefix("srgb") || description.contains("iec61966-2.1") || description.contains("iec 61966-2-1")
    }
}
