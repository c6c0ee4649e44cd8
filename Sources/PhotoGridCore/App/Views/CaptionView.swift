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
        case .backspace:
            while let last = edit.text.popLast(), last & 0xC0 == 0x80 {}
        // As in readline and the shells: Ctrl-U clears the line, Ctrl-W the last word.
        case .control("u"): edit.text = []
        case .control("w"):
            while edit.text.last == UInt8(ascii: " ") { edit.text.removeLast() }
            while let last = edit.text.last, last != UInt8(ascii: " ") { edit.text.removeLast() }
        case .character(let c): typed(Array(String(c).utf8))
        case .byte(let b): typed([b])
        default: break
        }
        return .done
    }

    /// Past what a caption is read back with, nothing more is taken.
    private func typed(_ bytes: [UInt8]) {
        let longer = edit.text + bytes
        if String(decoding: longer, as: UTF8.self).count <= XMPReader.maxCharacters { edit.text = longer }
    }

    /// The caption as the status line shows it while typed: its end, where the typing is, when
    /// it is longer than the line.
    func prompt(_ context: ViewContext) -> String? {
        let text = String(decoding: edit.text, as: UTF8.self)
        let room = max(10, context.screen.columns - 40)
        let shown = text.count > room ? "~" + String(text.suffix(room - 1)) : text
        return "caption: " + shown + "_"
    }

    func hint(_ context: ViewContext) -> String? { "Enter save  Esc cancel " }
}
