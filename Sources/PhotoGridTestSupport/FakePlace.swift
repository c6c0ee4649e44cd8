import PhotoGridModel
import PhotoGridSystem

/// A remote photo known only by its address, for tests of what the core does with a photo
/// that is not a file (its loader's own record stays out of them).
package final class FakePlace: RemotePlace {
    package let address: String
    package init(_ address: String) { self.address = address }
}

extension Photo {
    /// A remote photo for a test: `address` is its original's URL.
    package static func remote(_ address: String, relativePath: RawPath, format: ImageFormat = .jpeg) -> Photo {
        Photo(remote: FakePlace(address), relativePath: relativePath, format: format)
    }
}
