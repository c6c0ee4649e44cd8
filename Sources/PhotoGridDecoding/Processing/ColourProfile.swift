import CLcms
import PhotoGridMetadata
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
        return describesSRGB(source) ? nil : transform
    }

    /// Whether a profile says sRGB in other words: under another name (Ghostscript's, a
    /// camera maker's), or the profile libjxl writes for a picture it knows as sRGB's primaries
    /// with a 1/2.2 power (ImageMagick's PNGs say so with `gAMA` 45455, which photogrid, as the
    /// browsers do, shows as sRGB). Known by what it does to a grid of colours, primaries and
    /// greys among them, measured colorimetrically (the perceptual intent moves a v4 profile's
    /// black point): within three levels of sRGB, or of sRGB's primaries with that power
    /// (libjxl's profile for the latter, measured, is three levels from it at most, in the
    /// saturated colours). Adobe RGB, Display P3 or ProPhoto move them by tens.
    private static func describesSRGB(_ source: cmsHPROFILE) -> Bool {
        var probe: [UInt8] = []
        for r in stride(from: 0, through: 255, by: 51) {
            for g in stride(from: 0, through: 255, by: 51) { for b in stride(from: 0, through: 255, by: 51) { probe += [UInt8(r), UInt8(g), UInt8(b)] } }
        }
        let format = pg_lcms_rgb8()
        for target in [cmsCreate_sRGBProfile(), gammaSRGB()].compactMap({ $0 }) {
            defer { cmsCloseProfile(target) }
            guard let exact = cmsCreateTransform(source, format, target, format, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                 cmsUInt32Number(cmsFLAGS_NOCACHE)) else { continue }
            defer { cmsDeleteTransform(exact) }
            var out = probe
            out.withUnsafeMutableBytes { cmsDoTransform(exact, probe, $0.baseAddress, cmsUInt32Number(probe.count / 3)) }
            if zip(probe, out).allSatisfy({ abs(Int($0) - Int($1)) <= 3 }) { return true }
        }
        return false
    }

    /// sRGB's primaries and white with a plain 2.2 power for its curve.
    private static func gammaSRGB() -> cmsHPROFILE? {
        guard let tone = cmsBuildGamma(nil, 2.2) else { return nil }
        defer { cmsFreeToneCurve(tone) }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var rgb = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
                                  Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        let curves: [OpaquePointer?] = [tone, tone, tone]
        return curves.withUnsafeBufferPointer { cmsCreateRGBProfile(&white, &rgb, $0.baseAddress) }
    }

    /// The profile an `nclx` description (ITU-T H.273's colour primaries and transfer
    /// characteristics, as HEIF and AVIF carry them) stands for, made by Little CMS; nil where it
    /// is sRGB's (BT.709's primaries, or none said) or where photogrid shows the samples as they
    /// are (PQ and HLG: high dynamic range). Made once per description.
    package static func described(primaries: Int, transfer: Int) -> [UInt8]? {
        let key = [UInt8(clamping: primaries), UInt8(clamping: transfer)]
        if let known = descriptions.withLock({ $0[key] }) { return known }
        let made = makeProfile(primaries: primaries, transfer: transfer)
        descriptions.withLock { $0[key] = .some(made) }
        return made
    }

    private static let descriptions = Locked<[[UInt8]: [UInt8]?]>([:])

    /// H.273's colour primaries (red, green, blue, white as CIE xy) for the spaces wider than or
    /// unlike sRGB that photos use: BT.601's two, BT.2020, DCI-P3 and Display P3.
    static let primaries: [Int: [Double]] = [
        5: [0.64, 0.33, 0.29, 0.60, 0.15, 0.06, 0.3127, 0.3290],
        6: [0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290],
        9: [0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290],
        11: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351],
        12: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290],
    ]

    private static func makeProfile(primaries code: Int, transfer: Int) -> [UInt8]? {
        guard let xy = primaries[code] else { return nil }
        // lcms's parametric curve type 4: Y = (aX + b)^g above d, cX below.
        let curve: [Double]
        switch transfer {
        case 2, 13: curve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]           // sRGB, or none said
        case 1, 6, 14, 15: curve = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]  // BT.709's and its kin
        case 4: curve = [2.2, 1, 0, 0, 0]
        case 5: curve = [2.8, 1, 0, 0, 0]
        case 8: curve = [1, 1, 0, 0, 0]
        default: return nil
        }
        guard let tone = curve.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }) else { return nil }
        defer { cmsFreeToneCurve(tone) }
        var white = cmsCIExyY(x: xy[6], y: xy[7], Y: 1)
        var rgb = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: xy[0], y: xy[1], Y: 1), Green: cmsCIExyY(x: xy[2], y: xy[3], Y: 1),
                                  Blue: cmsCIExyY(x: xy[4], y: xy[5], Y: 1))
        let curves: [OpaquePointer?] = [tone, tone, tone]
        guard let profile = curves.withUnsafeBufferPointer({ cmsCreateRGBProfile(&white, &rgb, $0.baseAddress) }) else { return nil }
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0, Int(size) <= maxProfileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0 else { return nil }
        return bytes
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
