import PhotoGridCore

/// The procedural photos of the sample gallery: landscapes that are told apart at a glance,
/// even as a 40x40 thumbnail, by their dominant colours.
///
/// Painting is deterministic (a seeded generator and value noise, no system randomness) and
/// independent of the size: the same scene and seed at 160x120 and at 4000x3000 show the same
/// picture, which makes the EXIF thumbnails match their photos. Everything is smooth gradients
/// and soft edges, which keeps the JPEGs small.
package enum Scene: String, CaseIterable, Sendable {
    case sunset, hills, mountains, night, desert, lake, aurora, misty, lavender, autumn, beach

    /// A caption-like name for listings.
    package var title: String {
        switch self {
        case .sunset: "Sunset over the sea"
        case .hills: "Rolling green hills"
        case .mountains: "Snowy mountains"
        case .night: "Moonlit night"
        case .desert: "Desert dunes"
        case .lake: "Forest lake"
        case .aurora: "Northern lights"
        case .misty: "Misty morning valley"
        case .lavender: "Lavender field"
        case .autumn: "Autumn trees"
        case .beach: "Tropical beach"
        }
    }

    /// The scene painted upright at `width` x `height`. The same arguments give the same pixels.
    package static func render(_ scene: Scene, width: Int, height: Int, seed: UInt64) -> RGBImage {
        var image = RGBImage(width: max(0, width), height: max(0, height))
        guard width > 0, height > 0 else { return image }
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            let canvas = Canvas(width: width, height: height, pixels: buffer)
            var random = SeededRandom(seed: seed)
            switch scene {
            case .sunset: paintSunset(canvas, &random)
            case .hills: paintHills(canvas, &random)
            case .mountains: paintMountains(canvas, &random)
            case .night: paintNight(canvas, &random)
            case .desert: paintDesert(canvas, &random)
            case .lake: paintLake(canvas, &random)
            case .aurora: paintAurora(canvas, &random)
            case .misty: paintMisty(canvas, &random)
            case .lavender: paintLavender(canvas, &random)
            case .autumn: paintAutumn(canvas, &random)
            case .beach: paintBeach(canvas, &random)
            }
        }
        return image
    }
}
