import PhotoGridModel

/// In tests a photo may be named by a number (`TileRequest(photo: 3, ...)`): fixtures need an
/// identity, not a list. The shipped code cannot do this: an index is not a photo.
extension PhotoID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: UInt32) { self.init(raw: value) }
}

extension PhotoID {
    /// The photo numbered `n`: in a session made from a list, the photo first at that place.
    package init(_ n: Int) { self.init(raw: UInt32(n)) }
}
