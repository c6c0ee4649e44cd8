/// Where tier images outlive the process (the disk cache). The seam where tests put a fake.
public protocol TierStoring: Sendable {
    /// The tier image kept for this photo as it is now, or nil.
    func load(_ photo: Photo, tier: Tier) -> DecodedImage?
    func save(_ image: DecodedImage, of photo: Photo, tier: Tier)
}
