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

extension GridController {
    /// `e`: starts editing the caption of the photo in view, or says why it cannot be.
    func startCaptionEdit() {
        let index = zoom?.photo ?? position.focus
        guard session.photos.indices.contains(index) else { return }
        let photo = session.photos[index]
        if readOnly { notice = "read-only (--read-only): captions are not saved"; return }
        guard let file = photo.file else { notice = "captions can be edited in a local folder only"; return }
        let sidecar = Sidecar(photo: file)
        if let problem = sidecar.checkWritable() { notice = sidecar.message(problem); return }
        // The sidecar's caption, else the photo's own (read now if the pipeline has not yet), as
        // the text to edit: a caption is never started from nothing when there is one.
        let current = sidecar.caption() ?? (session.pipeline.info(index) ?? PhotoDecoder.readInfo(photo))?.caption ?? ""
        captionEdit = CaptionEdit(text: Array(current.utf8), original: Array(current.utf8), photo: file)
        // A slideshow would move on from the photo while its caption is typed.
        slideshowDue = nil
    }

    /// A key typed into the caption.
    func typeIntoCaption(_ key: Key) {
        guard var edit = captionEdit else { return }
        switch key {
        case .escape:
            captionEdit = nil
            notice = "caption not changed"
            return
        case .enter:
            captionEdit = nil
            saveCaption(edit)
            return
        case .backspace:
            while let last = edit.text.popLast(), last & 0xC0 == 0x80 {}
        // As in readline and the shells: Ctrl-U clears the line, Ctrl-W the last word.
        case .control("u"): edit.text = []
        case .control("w"):
            while edit.text.last == UInt8(ascii: " ") { edit.text.removeLast() }
            while let last = edit.text.last, last != UInt8(ascii: " ") { edit.text.removeLast() }
        case .character(let c): edit.text += Array(String(c).utf8)
        case .byte(let b): edit.text.append(b)
        default: return
        }
        // Past what a caption is read back with, nothing more is taken.
        if String(decoding: edit.text, as: UTF8.self).count > XMPReader.maxCharacters { return }
        captionEdit = edit
    }

    private func saveCaption(_ edit: CaptionEdit) {
        let text = String(decoding: edit.text, as: UTF8.self).trimmingWhitespace
        guard text != String(decoding: edit.original, as: UTF8.self).trimmingWhitespace else {
            notice = "caption not changed"
            return
        }
        let sidecar = Sidecar(photo: edit.photo)
        if let problem = sidecar.save(caption: text) {
            notice = sidecar.message(problem) + "; caption not saved"
            return
        }
        notice = text.isEmpty ? "caption taken out of " + sidecar.name : "caption saved in " + sidecar.name
        if let index = session.photos.firstIndex(where: { $0.file == edit.photo }) { session.pipeline.forgetInfo(index) }
        drawnDetails = nil
    }

    /// The caption as the status line shows it while typed: its end, where the typing is, when
    /// it is longer than the line.
    var captionStatus: String? {
        guard let captionEdit else { return nil }
        let text = String(decoding: captionEdit.text, as: UTF8.self)
        let room = max(10, screen.columns - 40)
        let shown = text.count > room ? "~" + String(text.suffix(room - 1)) : text
        return "caption: " + shown + "_"
    }
}
