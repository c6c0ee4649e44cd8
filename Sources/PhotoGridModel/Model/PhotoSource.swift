import PhotoGridSystem

/// Where a photo's bytes come from: a file, or a place only its gallery's loader knows
/// (`GallerySource.loader`), such as a remote photo's original and renditions. The core never
/// looks inside a remote photo: it hands it back to the loader that made it.
package enum PhotoSource: Hashable, Sendable, CustomStringConvertible {
    case file(RawPath)
    case remote(any RemotePlace)

    /// The file, for what only a file can do: open it, stat it, keep a sidecar beside it.
    package var file: RawPath? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// The loader's own record of a remote photo.
    package var remote: (any RemotePlace)? {
        if case .remote(let place) = self { return place }
        return nil
    }

    /// How the photo is named to other programs (`-o`, `o`, `y`, the player): the path as the
    /// kernel knows it, or the URL.
    package var bytes: [UInt8] {
        switch self {
        case .file(let path): return path.bytes
        case .remote(let place): return Array(place.address.utf8)
        }
    }

    /// Its last part, for "opened NAME" and the like.
    package var lastComponent: String { RawPath(bytes).lastComponent.description }

    package var description: String { String(decoding: bytes, as: UTF8.self) }

    package static func == (a: PhotoSource, b: PhotoSource) -> Bool {
        switch (a, b) {
        case (.file(let x), .file(let y)): return x == y
        case (.remote(let x), .remote(let y)): return x.address == y.address
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .file(let path): hasher.combine(0); hasher.combine(path)
        case .remote(let place): hasher.combine(1); hasher.combine(place.address)
        }
    }
}

/// A remote photo as its loader knows it (the remote gallery's record of its original and
/// renditions): an object, so that the loader gets it back from a `Photo` without a lookup.
/// Two are the same photo when their addresses are equal.
package protocol RemotePlace: AnyObject, Sendable {
    /// Its original's URL: what `-o`, `o` and `y` hand on, and what it is known by.
    var address: String { get }
}
