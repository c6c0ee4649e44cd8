import PhotoGridSystem

/// Where a photo's bytes come from. The core reads files; any other kind of photo is known by an
/// address that only its gallery's decoder understands (`GallerySource.decoder`): for a remote
/// gallery, the original's URL (`PhotoGridRemote`). The core never looks inside an address.
package enum PhotoSource: Hashable, Sendable, CustomStringConvertible {
    case file(RawPath)
    case address(String)

    /// The file, for what only a file can do: open it, stat it, keep a sidecar beside it.
    package var file: RawPath? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// How the photo is named to other programs (`-o`, `o`, `y`, the player): the path as the
    /// kernel knows it, or the address.
    package var bytes: [UInt8] {
        switch self {
        case .file(let path): return path.bytes
        case .address(let address): return Array(address.utf8)
        }
    }

    /// Its last part, for "opened NAME" and the like.
    package var lastComponent: String { RawPath(bytes).lastComponent.description }

    package var description: String { String(decoding: bytes, as: UTF8.self) }
}
