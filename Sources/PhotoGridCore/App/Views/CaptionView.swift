import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Editing a photo's caption (`e`), in the grid or the photo view: typed on the status line as a
/// search is, saved with Enter into the photo's XMP sidecar (`Sidecar`), Esc leaves it as it was.
/// Nothing is written with `--read-only`, in a remote gallery, or where the sidecar or its folder
/// cannot be written; the status line says which, before anything is typed.
package struct CaptionEdit: Sendable, Equatable {
    /// What is typed, as bytes: a character outside ASCII comes one byte at a time.
    package var text: [UInt8]
    /// The caption the edit began with.
    let original: [UInt8]
    /// The photo, by path: a rescan or a new order meanwhile does not send the caption elsewhere.
    let photo: RawPath
}

final class CaptionView: AppView {
    private(set) var edit: CaptionEdit

    init(edit: CaptionEdit) { self.edit = edit }

    /// Every key is the caption's while it is typed.
    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        switch key {
        case .escape: return .taken([.close(self), .notice("caption not changed")])
        case .enter: return .taken([.close(self), .saveCaption(edit)])
        default:
            // Past what a caption is read back with, nothing more is taken.
            var line = TypedLine(bytes: edit.text)
            line.take(key) { String(decoding: $0, as: UTF8.self).count <= XMPReader.maxCharacters }
            edit.text = line.bytes
        }
        return .done
    }

    /// The caption as the status line shows it while typed: its end, where the typing is, when
    /// it is longer than the line.
    func prompt(_ context: ViewContext) -> String? {
        "caption: " + TypedLine(bytes: edit.text).shown(room: max(10, context.screen.columns - 40)) + "_"
    }

    func hint(_ context: ViewContext) -> String? { "Enter save  Esc cancel " }
}
