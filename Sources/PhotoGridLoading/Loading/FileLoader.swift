import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Photos that are files: the decoder reads them in place, only as much as it needs (libjpeg
/// reads a progressive file's first scans and stops), so loading is naming the file.
package struct FileLoader: PhotoLoading {
    package init() {}

    package func load(_ photo: Photo, _ want: LoadWant, then: @escaping LoadCompletion) -> LoadStart {
        guard let path = photo.file else { return .ready(.failure(.unreadable("not a file: " + photo.source.description))) }
        return .ready(.success(.file(path)))
    }
}
