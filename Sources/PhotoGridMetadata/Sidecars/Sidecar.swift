import PhotoGridModel
import PhotoGridSystem

/// A photo's XMP sidecar, named as darktable and digiKam name theirs: `photo.jpg.xmp` beside
/// `photo.jpg`; where only Lightroom's `photo.xmp` is there, that one (`of(_:)`). It is the only
/// file photogrid writes beside a photo, and only when a caption or a rating is saved (never with
/// `--read-only`); the photo's own file is never opened for writing.
///
/// A sidecar is read only when it is a regular file of at most `maxBytes`, never through a
/// symbolic link (which could point anywhere, out of the folder too); one that is not, or does
/// not scan as XMP, is left exactly as it is and the user is told why.
package struct Sidecar: Sendable {
    package let path: RawPath
    /// XMP packets of real sidecars are a few KB; darktable's with a long history some tens.
    package static let maxBytes = XMPReader.maxPacketBytes

    package init(photo: RawPath) { path = RawPath(photo.bytes + Array(".xmp".utf8)) }

    init(path: RawPath) { self.path = path }

    /// The sidecar a photo has: darktable's and digiKam's `IMG_0042.CR2.xmp` first, else
    /// Lightroom's `IMG_0042.xmp` when that one is there (a Lightroom catalogue's edits are kept
    /// in it, so an edit here goes to it too), else the first naming, to be made.
    package static func of(_ photo: RawPath) -> Sidecar {
        let own = Sidecar(photo: photo)
        guard own.path.linkStatus() == nil else { return own }
        let name = photo.lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return own }
        let folder = photo.parent.bytes.isEmpty ? [] : photo.parent.bytes + [UInt8(ascii: "/")]
        let lightroom = Sidecar(path: RawPath(folder + name[..<dot] + Array(".xmp".utf8)))
        return lightroom.path.linkStatus() != nil ? lightroom : own
    }

    package var name: String { path.lastComponent.description }

    /// Why a sidecar is not read or not written, in the words the status line uses.
    package enum Problem: Error, Equatable {
        case link, notAFile, tooLarge, malformed
        case readOnlyFile
        case folderNotWritable(String)
        case failed(String)
    }

    package func message(_ problem: Problem) -> String {
        switch problem {
        case .link: return name + " is a symbolic link: photogrid does not follow it"
        case .notAFile: return name + " is not a file"
        case .tooLarge: return name + " is larger than 1 MB: left as it is"
        case .malformed: return name + " is not XMP photogrid can edit: left as it is"
        case .readOnlyFile: return name + " is read-only"
        case .folderNotWritable(let reason): return "cannot write in " + path.parent.lastComponent.description + ": " + reason
        case .failed(let reason): return name + ": " + reason
        }
    }

    /// The sidecar's bytes; nil when there is none.
    package func read() -> Result<[UInt8]?, Problem> {
        let status: FileStatus
        do throws(SystemError) { status = try path.checkedStatus(followingLink: false) } catch {
            return error.isNotFound ? .success(nil) : .failure(.failed(error.description))
        }
        if status.kind == .symbolicLink { return .failure(.link) }
        guard status.isRegular else { return .failure(.notAFile) }
        guard status.size <= Sidecar.maxBytes else { return .failure(.tooLarge) }
        // noFollow: a link put there since the look above is not followed either.
        let file: FileDescriptor
        do throws(SystemError) { file = try FileDescriptor.open(path, .read, options: [.noFollow, .nonBlocking]) } catch {
            return .failure(error.isLink ? .link : .failed(error.description))
        }
        return file.closing { file in
            // One byte past the limit is enough to know it is too large.
            do throws(SystemError) {
                let bytes = try file.readToEnd(limit: Sidecar.maxBytes + 1)
                return bytes.count > Sidecar.maxBytes ? .failure(.tooLarge) : .success(bytes)
            } catch {
                return .failure(.failed(error.description))
            }
        }
    }

    /// The sidecar's caption, for the details panel: nil when there is none or it is not read.
    package func caption() -> String? {
        guard case .success(let bytes?) = read() else { return nil }
        return XMPReader.description(bytes)
    }

    /// The sidecar's rating (`XMPRating`): nil when there is none or it is not read.
    package func rating() -> Int? {
        guard case .success(let bytes?) = read() else { return nil }
        return XMPRating.read(bytes)
    }

    /// Whether a caption could be saved here now: said before the user types one.
    package func checkWritable() -> Problem? {
        if !(path.parent.bytes.isEmpty ? RawPath(".") : path.parent).isWritable {
            return .folderNotWritable(SystemError.lastMessage())
        }
        switch read() {
        case .failure(let problem): return problem
        case .success(nil): return nil
        case .success(let bytes?):
            if !path.isWritable { return .readOnlyFile }
            return XMPCaptionEdit.merge("", into: bytes) == nil ? .malformed : nil
        }
    }

    /// Saves `caption` (empty: takes it out): merged into the sidecar as it is now, written to a
    /// new file beside it and renamed over it, so that a reader sees the old sidecar or the new
    /// one and never half of one, and a crash leaves the old one whole.
    package func save(caption: String) -> Problem? {
        edit { existing in
            guard let existing else {
                // Nothing to take out of a sidecar that is not there: no file is made for it.
                return .write(caption.isEmpty ? nil : XMPCaptionEdit.fresh(caption))
            }
            // A sidecar photogrid made for a caption alone, that caption taken out: nothing is
            // left to keep, and the file goes (a file of someone else's, however little it holds, stays).
            if caption.isEmpty, let old = XMPReader.description(existing), existing == XMPCaptionEdit.fresh(old) { return .remove }
            return XMPCaptionEdit.merge(caption, into: existing).map { .write($0) } ?? .malformed
        }
    }

    /// Saves a rating (-1 a reject, 0 none, 1-5 stars) the same way. A sidecar photogrid made for
    /// a rating alone goes when the rating is cleared; in any other it becomes 0, which every
    /// reader takes for none, so that a rating inside the photo does not show through again.
    package func save(rating: Int) -> Problem? {
        edit { existing in
            guard let existing else { return .write(rating == 0 ? nil : XMPRating.fresh(rating)) }
            if rating == 0, let old = XMPRating.read(existing), existing == XMPRating.fresh(old) { return .remove }
            return XMPRating.merge(rating, into: existing).map { .write($0) } ?? .malformed
        }
    }

    /// Saves a colour label ("Red", ...; empty: none) the same way: a sidecar photogrid made for
    /// a label alone goes when it is cleared; in any other the label becomes empty, so that one
    /// inside the photo does not show through again.
    package func save(label: String) -> Problem? {
        let property = XMPBasicProperty.label
        return edit { existing in
            guard let existing else { return .write(label.isEmpty ? nil : property.fresh(label)) }
            if label.isEmpty, let old = property.read(existing), existing == property.fresh(old) { return .remove }
            return property.merge(label, into: existing).map { .write($0) } ?? .malformed
        }
    }

    /// The orientation a sidecar's packet says the photo is to be shown in, if it says one.
    package static func orientation(in packet: [UInt8]) -> Orientation? {
        XMPBasicProperty.orientation.read(packet).flatMap { Int($0.trimmingWhitespace) }.flatMap(Orientation.init(rawValue:))
    }

    /// The orientation the sidecar of the photo at `file` says, if it has one that says one.
    package static func orientation(of file: RawPath) -> Orientation? {
        guard case .success(let bytes?) = Sidecar.of(file).read() else { return nil }
        return orientation(in: bytes)
    }

    /// Saves the orientation a photo is to be shown in (`tiff:Orientation`, 1-8) the same way: a
    /// sidecar photogrid made for it alone goes when it is back to 1 (upright as stored).
    package func save(orientation: Orientation) -> Problem? {
        let property = XMPBasicProperty.orientation, value = String(orientation.rawValue)
        return edit { existing in
            guard let existing else { return .write(orientation == .up ? nil : property.fresh(value)) }
            if orientation == .up, let old = property.read(existing), existing == property.fresh(old) { return .remove }
            return property.merge(value, into: existing).map { .write($0) } ?? .malformed
        }
    }

    /// The sidecar's keywords (`dc:subject`), empty when it has none or is not read.
    package func keywords() -> [String] {
        guard case .success(let bytes?) = read() else { return [] }
        return XMPReader.keywords(bytes)
    }

    /// Saves the photo's whole list of keywords the same way: a sidecar photogrid made for
    /// keywords alone goes when the last is taken off.
    package func save(keywords: [String]) -> Problem? {
        edit { existing in
            guard let existing else { return .write(keywords.isEmpty ? nil : XMPKeywordEdit.fresh(keywords)) }
            if keywords.isEmpty, existing == XMPKeywordEdit.fresh(XMPReader.keywords(existing)) { return .remove }
            return XMPKeywordEdit.merge(keywords, into: existing).map { .write($0) } ?? .malformed
        }
    }

    /// What an edit makes of the sidecar's bytes (nil: there is none).
    enum Change {
        /// New bytes, or nothing to write (nil).
        case write([UInt8]?)
        case remove
        case malformed
    }

    private func edit(_ change: ([UInt8]?) -> Change) -> Problem? {
        if let problem = checkWritable() { return problem }
        let existing: [UInt8]?
        switch read() {
        case .failure(let problem): return problem
        case .success(let bytes): existing = bytes
        }
        let content: [UInt8]
        switch change(existing) {
        case .malformed: return .malformed
        case .remove: return path.remove() ? nil : .failed(FileReader.lastError())
        case .write(nil): return nil
        case .write(let bytes?):
            if bytes == existing { return nil }
            content = bytes
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(content, to: path, permissions: existing == nil ? nil : path.linkStatus()?.permissions)
            return nil
        } catch {
            switch error {
            case .cannotCreate(let reason): return .folderNotWritable(reason.description)
            case .failed(let reason): return .failed(reason.description)
            }
        }
    }
}
