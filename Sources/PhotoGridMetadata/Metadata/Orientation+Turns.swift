import PhotoGridModel

/// Orientations turned and combined: what `[` and `]` write in a sidecar for a photo that is not a
/// JPEG, and what is done to a picture its decoder has already stood up by the file's own
/// orientation to show it as the sidecar says.
extension Orientation {
    /// This orientation, then a quarter turn as shown.
    package func turned(clockwise: Bool) -> Orientation {
        combined(then: clockwise ? .right : .left)
    }

    /// What to do to a picture shown as `own` says, to show it as this orientation says.
    package func relative(to own: Orientation) -> Orientation {
        own.inverse.combined(then: self)
    }

    /// The orientation that undoes this one.
    var inverse: Orientation {
        Orientation.allCases.first { combined(then: $0) == .up } ?? .up
    }

    /// Doing this, then `next`, to a picture, as one: found by doing both to a small uneven
    /// picture of numbered pixels and looking for the orientation that does the same.
    func combined(then next: Orientation) -> Orientation {
        let cells = RGBImage(width: 3, height: 2, pixels: (0..<18).map { UInt8($0) })
        let both = next.apply(to: apply(to: cells))
        return Orientation.allCases.first { $0.apply(to: cells) == both } ?? .up
    }
}
