import CTurboJPEG
import PhotoGridMetadata
import PhotoGridSystem

/// `[` and `]`: a JPEG turned a quarter without decoding it again, through TurboJPEG's lossless
/// transform (the DCT blocks moved, as `jpegtran -rotate` does), so not one pixel is re-encoded.
/// The turn is as the photo is shown: its EXIF Orientation is folded into the same transform and
/// then set to 1, since the pixels now stand as shown. Every other marker (EXIF, XMP, ICC, IPTC)
/// is copied as it was; the EXIF thumbnail and a camera's Multi-Picture preview turn too. The
/// file is replaced whole (`AtomicFile`), with its permissions.
///
/// Edges: a transform moves whole blocks of 8 or 16 pixels (an MCU). A photo whose width or
/// height is a multiple of its MCU (almost every camera's and phone's) turns perfectly. One that
/// is not has a strip of partial blocks along an edge that cannot be moved losslessly; jpegtran
/// leaves it unturned in place (a stripe of the wrong pixels) unless asked to `-trim` it away.
/// photogrid trims, as `jpegtran -trim` does: the photo loses at most 15 pixels along that edge,
/// and the status line says how many, rather than showing a stripe or decoding and re-encoding.
package enum JPEGRotation {
    package enum Turn: Sendable { case clockwise, counterclockwise }

    package enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case notJPEG(String)
        case failed(String)

        package var description: String {
            switch self {
            case .unreadable(let reason): return "cannot read it: " + reason
            case .notJPEG(let reason): return "not a JPEG TurboJPEG can turn (" + reason + ")"
            case .failed(let reason): return reason
            }
        }
    }

    /// What a turn did: the size after it, and the pixels trimmed off an edge (0 for most photos).
    package struct Done: Sendable, Equatable {
        package let width: Int
        package let height: Int
        package let trimmed: Int
    }

    /// The largest file turned in memory (a 100-megapixel JPEG is about 60 MB).
    static let largest = 512 << 20

    /// Turns the JPEG at `file` in place.
    package static func rotate(_ file: RawPath, _ turn: Turn) throws(Failure) -> Done {
        let (data, permissions) = try read(file)
        let (bytes, done) = try rotated(data, turn)
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(bytes, to: file, permissions: permissions)
        } catch {
            switch error {
            case .cannotCreate(let reason), .failed(let reason): throw .failed("not written: " + reason.description)
            }
        }
        return done
    }

    /// The turned JPEG's bytes, and what the turn did.
    package static func rotated(_ data: [UInt8], _ turn: Turn) throws(Failure) -> ([UInt8], Done) {
        let segments = JPEGSegments.parse(data)
        let shown = ExifInfo.parse(segments.exif ?? []).orientation
        let op = Transform.upright(shown).then(turn == .clockwise ? .rotate90 : .rotate270)
        guard let handle = tjInitTransform() else { throw .failed("TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        let before = try size(handle, data)
        // Progressive stays progressive; libjpeg-turbo writes baseline otherwise.
        let progressive = isProgressive(data) ? TJXOPT_PROGRESSIVE : 0
        var bytes = try transformed(handle, data, op, progressive: progressive)
        if shown != .up, let upright = ExifInfo.settingOrientation(1, inJPEG: bytes) { bytes = upright }
        // The EXIF thumbnail stands as the photo did: turned the same way, else dropped, never
        // left showing the photo as it was.
        if let exif = JPEGSegments.parse(bytes).exif, let range = ExifInfo.parse(exif).thumbnail {
            let turned = try? transformed(handle, Array(exif[range]), op, progressive: 0)
            bytes = turned.flatMap { ExifInfo.replacingThumbnail(inJPEG: bytes, with: $0) } ?? ExifInfo.droppingThumbnail(inJPEG: bytes)
        }
        // A camera's larger preview after the photo (`MultiPicture`) turns the same way and
        // follows the turned photo, its index saying where; else the index goes, never left
        // pointing past the file's end (TurboJPEG writes the photo alone).
        let preview = segments.preview.flatMap { $0.upperBound <= data.count ? Array(data[$0]) : nil } ?? []
        let turnedPreview = preview.starts(with: [0xFF, 0xD8]) ? try? transformed(handle, preview, op, progressive: 0) : nil
        bytes = turnedPreview.flatMap { MultiPicture.reindexed(bytes, preview: $0) } ?? MultiPicture.droppingIndex(bytes)
        let after = try size(handle, bytes)
        let expected = op.swapsAxes ? (before.height, before.width) : (before.width, before.height)
        let trimmed = (expected.0 - after.width) + (expected.1 - after.height)
        return (bytes, Done(width: after.width, height: after.height, trimmed: trimmed))
    }

    /// `data` turned: perfectly where it can be, else with its part blocks trimmed.
    private static func transformed(_ handle: tjhandle, _ data: [UInt8], _ op: Transform, progressive: Int32) throws(Failure) -> [UInt8] {
        if let perfect = try transform(handle, data, op, options: TJXOPT_PERFECT | progressive) { return perfect }
        guard let trimmed = try transform(handle, data, op, options: TJXOPT_TRIM | progressive) else {
            throw .failed("TurboJPEG: " + String(cString: tjGetErrorStr2(handle)))
        }
        return trimmed
    }

    /// The output of one transform; nil when TurboJPEG refused it as not perfect (then it is
    /// asked again with trimming); a throw for anything else.
    private static func transform(_ handle: tjhandle, _ data: [UInt8], _ op: Transform, options: Int32) throws(Failure) -> [UInt8]? {
        var spec = tjtransform()
        spec.op = op.rawValue
        spec.options = options
        var outBuffer: UnsafeMutablePointer<UInt8>? = nil
        var outSize: UInt = 0
        let result = data.withUnsafeBufferPointer { input in
            // A warning (a truncated or damaged file) stops it: a damaged photo is not written again.
            tjTransform(handle, input.baseAddress, UInt(input.count), 1, &outBuffer, &outSize, &spec, TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
        }
        defer { if let outBuffer { tjFree(outBuffer) } }
        guard result == 0, let outBuffer else {
            let message = String(cString: tjGetErrorStr2(handle))
            if options & TJXOPT_PERFECT != 0, message.lowercased().contains("not perfect") { return nil }
            throw .failed("TurboJPEG: " + message)
        }
        return Array(UnsafeBufferPointer(start: outBuffer, count: Int(outSize)))
    }

    private static func size(_ handle: tjhandle, _ data: [UInt8]) throws(Failure) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let result = data.withUnsafeBufferPointer { input in
            tjDecompressHeader3(handle, input.baseAddress, UInt(input.count), &width, &height, &subsampling, &colorspace)
        }
        guard result == 0 else { throw .notJPEG(String(cString: tjGetErrorStr2(handle))) }
        return (Int(width), Int(height))
    }

    private static func read(_ file: RawPath) throws(Failure) -> ([UInt8], UInt32) {
        do throws(SystemError) {
            let fd = try FileDescriptor.open(file, .read, options: [.noFollow, .untrusted])
            return try fd.closing { fd throws(SystemError) in
                let status = try fd.status()
                guard status.isRegular, status.size <= largest else { throw SystemError(code: 27) }     // EFBIG
                return (try fd.read(upTo: status.size), status.permissions & 0o7777)
            }
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// A progressive JPEG's frame (SOF2, or SOF6/10/14) comes before its first scan.
    static func isProgressive(_ data: [UInt8]) -> Bool {
        var at = 2
        while at + 4 <= data.count, data[at] == 0xFF {
            let marker = data[at + 1]
            if marker == 0xFF { at += 1; continue }
            if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { return true }
            if marker == 0xDA || marker == 0xD9 { return false }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            at += 2 + (Int(data[at + 2]) << 8 | Int(data[at + 3]))
        }
        return false
    }
}

/// TurboJPEG's eight transforms (`TJXOP_*`, in its order), which are also the eight EXIF
/// orientations; two done one after the other are one of them again.
enum Transform: Int32, CaseIterable {
    case none = 0, flipHorizontal, flipVertical, transpose, transverse, rotate90, rotate180, rotate270

    /// The transform that stands up a photo stored with `orientation` (exiftran's table).
    static func upright(_ orientation: Orientation) -> Transform {
        switch orientation {
        case .up: return .none
        case .mirrored: return .flipHorizontal
        case .down: return .rotate180
        case .mirroredDown: return .flipVertical
        case .transposed: return .transpose
        case .right: return .rotate90
        case .transverse: return .transverse
        case .left: return .rotate270
        }
    }

    var swapsAxes: Bool { [.transpose, .transverse, .rotate90, .rotate270].contains(self) }

    /// This transform, then `next`, as one: found by doing both to a small uneven grid of
    /// numbered cells and looking for the one transform that does the same.
    func then(_ next: Transform) -> Transform {
        let grid = [[0, 1, 2], [3, 4, 5]]
        let both = next.apply(apply(grid))
        return Transform.allCases.first { $0.apply(grid) == both } ?? .none
    }

    /// The transform done to a grid of cells (rows of columns).
    func apply(_ g: [[Int]]) -> [[Int]] {
        let h = g.count, w = g.first?.count ?? 0
        func make(_ rows: Int, _ columns: Int, _ cell: (Int, Int) -> Int) -> [[Int]] {
            (0..<rows).map { y in (0..<columns).map { x in cell(x, y) } }
        }
        switch self {
        case .none: return g
        case .flipHorizontal: return make(h, w) { x, y in g[y][w - 1 - x] }
        case .flipVertical: return make(h, w) { x, y in g[h - 1 - y][x] }
        case .rotate180: return make(h, w) { x, y in g[h - 1 - y][w - 1 - x] }
        case .transpose: return make(w, h) { x, y in g[x][y] }
        case .rotate90: return make(w, h) { x, y in g[h - 1 - x][y] }
        case .rotate270: return make(w, h) { x, y in g[x][w - 1 - y] }
        case .transverse: return make(w, h) { x, y in g[h - 1 - x][w - 1 - y] }
        }
    }
}
