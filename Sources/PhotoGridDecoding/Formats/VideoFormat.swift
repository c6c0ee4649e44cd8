import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Videos: a tile with a frame taken by ffmpeg where it is installed (`VideoFrame`, which the
/// decoder runs on the file itself), and Enter plays them. Known by their names and by their
/// first bytes: any ISO media not known as a picture or a raw file (MP4, MOV, 3GP), Matroska
/// and WebM (EBML), AVI.
struct VideoFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["mp4": .video("MP4 video"), "m4v": .video("MP4 video"), "mov": .video("QuickTime video"),
                                             "mkv": .video("Matroska video"), "webm": .video("WebM video"), "avi": .video("AVI video")]

    func format(of head: [UInt8]) -> ImageFormat? {
        if head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) {
            return .video(head[8..<12].elementsEqual("qt  ".utf8) ? "QuickTime video" : "MP4 video")
        }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .video("Matroska video") }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("AVI ".utf8) { return .video("AVI video") }
        return nil
    }

    func reads(_ format: ImageFormat) -> Bool { format.isVideo }

    func mediaType(_ format: ImageFormat) -> String {
        switch format.name {
        case "QuickTime video": return "video/quicktime"
        case "Matroska video": return "video/x-matroska"
        case "WebM video": return "video/webm"
        case "AVI video": return "video/x-msvideo"
        default: return "video/mp4"
        }
    }
}
