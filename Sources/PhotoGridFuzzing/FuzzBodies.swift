import PhotoGridCore
import GalleryFormats
import PhotoGridServe

/// What each fuzz target does with one input: the libFuzzer binary in Tests/Fuzz calls these,
/// and `FuzzRegressionTests` replays every input a fuzzer once crashed on
/// (Tests/Fixtures/fuzz/<target>/) through the same code. Anything but a normal return or a
/// thrown error is a bug; a check that fails calls `fatalError`, which the fuzzer reports.
public enum FuzzBodies {
    public static let targets: [String: @Sendable ([UInt8]) -> Void] = [
        "jpeg": jpeg, "metadata": metadata, "remote": remote, "terminal": terminal, "keys": keys,
        "png": picture(signature: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        "webp": picture(signature: Array("RIFF".utf8)),
        "gif": picture(signature: Array("GIF89a".utf8)),
        "heif": picture(signature: []),
        // AVIF's pictures go through libavif first (AVIF.swift), its thumbnails and metadata
        // through libheif: an `ftyp` box naming AVIF, for the fuzzer to spend its time past it.
        "avif": picture(signature: [0, 0, 0, 0x1C] + Array("ftypavif".utf8)),
        "tiff": picture(signature: [0x49, 0x49, 0x2A, 0]),
        "jxl": picture(signature: [0xFF, 0x0A]),
        "raw": raw, "sidecar": sidecar,
        // What a client sends `photogrid serve`: requests read off a connection, one after another.
        "http": RequestFuzzing.read,
    ]

    /// A raw file through LibRaw as a tile and as the photo view ask for it (preview, else the
    /// development), and its details.
    public static func raw(_ bytes: [UInt8]) {
        for (covering, limit) in [(48, 64), (800, 1024)] {
            _ = try? PhotoDecoder.decodeRAW("NEF", bytes, covering: covering, atMost: limit)
        }
        _ = try? RAW.readHeader(bytes)
    }

    /// The decode path of the other formats as tiles, the zoom view and the details panel use it:
    /// by content, a small and a large tile (a cut file's partial decode included), an
    /// animation's frames, and the EXIF
    /// and XMP it carries. Inputs that lost their signature get it back, so the fuzzer spends
    /// its time past it.
    static func picture(signature: [UInt8]) -> @Sendable ([UInt8]) -> Void {
        { input in
            let bytes = input.starts(with: signature) ? input : signature + input
            for (covering, limit) in [(48, 64), (400, 512)] {
                _ = try? PhotoDecoder().decode(bytes, covering: covering, atMost: limit)
            }
            // An animation's frames as the photo view plays them (GIF, WebP, AVIF sequences),
            // the first 30 of them, each frame's picture checked for its size.
            var frames = 0
            try? Animation.frames(bytes, maxPixels: 4_000_000) { frame in
                if frame.image.pixels.count != frame.image.width * frame.image.height * 3 || frame.milliseconds <= 0 {
                    fatalError("a frame of \(frame.image.width)x\(frame.image.height), \(frame.milliseconds) ms")
                }
                frames += 1
                return frames < 30
            }
            let found = PNG.isPNG(bytes) ? EmbeddedMetadata.png(bytes) : WebP.isWebP(bytes) ? EmbeddedMetadata.webp(bytes) : HEIF.metadata(bytes)
            if let text = PhotoInfo(width: 1, height: 1, exif: found.exif, xmp: found.xmp).caption {
                checkInert(TerminalText.clip(text, to: 60))
            }
        }
    }

    /// The JPEG decode path as a tile and the zoom view use it: header, EXIF thumbnail, a
    /// scaled decode with the shortcuts (partial progressive scans, fast IDCT) and a full one.
    public static func jpeg(_ bytes: [UInt8]) {
        if let header = try? JPEG.readHeader(bytes, maxPixels: 16_000_000) {
            _ = PhotoDecoder.thumbnail(header: header, data: bytes)
        }
        for (covering, limit) in [(48, 64), (400, 512)] {
            _ = try? PhotoDecoder().decode(bytes, covering: covering, atMost: limit)
        }
    }

    /// The metadata readers behind the details panel: the segment walk, EXIF (in a file and as
    /// a bare TIFF structure), XMP and IPTC; and what the panel makes of them.
    public static func metadata(_ bytes: [UInt8]) {
        for info in [PhotoInfo.read([0xFF, 0xD8] + bytes), PhotoInfo.read(bytes)].compactMap({ $0 }) {
            for text in [info.caption, info.make, info.model, info.lens, info.dateTaken].compactMap({ $0 }) {
                checkInert(TerminalText.clip(text, to: 60))
            }
        }
        _ = ExifInfo.parse(bytes)
        _ = XMPReader.description(bytes)
        _ = XMPReader.label(bytes)
        _ = XMPReader.keywords(bytes)
        _ = IPTCReader.caption(bytes)
    }

    /// The sidecar editors photogrid writes users' sidecars with (issue 50): a caption, a rating,
    /// a label and keywords merged into any packet. An edit either is refused (nil) or reads back
    /// as what was written: a merge that returns bytes in which the value is not found would be
    /// a sidecar silently not changed, or changed elsewhere.
    public static func sidecar(_ bytes: [UInt8]) {
        // Past the readers' bound a packet reads as nothing: not the editors' business.
        guard bytes.count + 64 <= XMPReader.maxPacketBytes else { return }
        if let edited = XMPRating.merge(3, into: bytes), XMPRating.read(edited) != 3 {
            fatalError("a rating written does not read back")
        }
        if let edited = XMPBasicProperty.label.merge("Red", into: bytes), XMPBasicProperty.label.read(edited) != "Red" {
            fatalError("a label written does not read back")
        }
        // The turn of a picture that is not a JPEG (`tiff:Orientation`, another namespace).
        if let edited = XMPBasicProperty.orientation.merge("6", into: bytes), Sidecar.orientation(in: edited) != .right {
            fatalError("an orientation written does not read back")
        }
        if let edited = XMPKeywordEdit.merge(["fuzz", "a & b"], into: bytes) {
            let read = XMPReader.keywords(edited)
            if !(read.contains("fuzz") && read.contains("a & b")) {
                fatalError("keywords written do not read back: \(read)")
            }
        }
        for caption in ["fuzzed caption", ""] {
            _ = XMPCaptionEdit.merge(caption, into: bytes)
        }
    }

    /// What a server sends as a gallery: read as JSON (a manifest, nginx's listing) and as HTML
    /// (nginx, Apache, python), and the URLs in it, absolute and relative.
    public static func remote(_ bytes: [UInt8]) {
        let base = RemoteURL("http://127.0.0.1:8477/photos/")!
        for type in ["application/json", "text/html", nil] {
            _ = try? RemoteDocument.classify(body: bytes, contentType: type, url: base)
        }
        _ = DirectoryListing.parse(bytes, url: base, contentType: "text/html")
        _ = try? GalleryManifest.parse(bytes, url: base)
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        _ = RemoteURL(text)?.description
        _ = base.resolving(text)?.description
        // A batch response (and a batch's list): read whole and in two pieces, the same parts
        // and the same fault, whatever the bytes.
        var whole = BatchReader(items: 16, maxPartBytes: 1 << 20)
        let parts = whole.feed(bytes)
        var split = BatchReader(items: 16, maxPartBytes: 1 << 20)
        let half = bytes.count / 2
        let pieces = split.feed(bytes[..<half]) + split.feed(bytes[half...])
        precondition(parts == pieces && whole.failure == split.failure && whole.ended == split.ended,
                     "a batch read in two pieces differs from the same read whole")
        _ = Batch.targets(in: bytes)
        // A first visit's opening: what it reads writes back as itself, and answers any size.
        if let opening = Batch.Opening(body: bytes) {
            precondition(Batch.Opening(body: opening.body) == opening, "an opening does not read back as itself")
            for photos in [1, 9, 1000] {
                let screen = opening.screen(forPhotos: photos)
                precondition((1...Batch.maxItems).contains(screen.count) && screen.covering >= 1, "an opening outside its limits")
            }
        }
    }

    /// What a terminal answers to the start-up probe, whole and cut in two, and text from files
    /// made safe to show.
    public static func terminal(_ bytes: [UInt8]) {
        let whole = TerminalReplies.parse(bytes)
        _ = TerminalReplies.parse(whole.incomplete)
        if bytes.count > 1 {
            let cut = bytes.count / 2
            let first = TerminalReplies.parse(Array(bytes[..<cut]))
            _ = TerminalReplies.parse(first.incomplete + bytes[cut...])
        }
        checkInert(TerminalText.clip(String(decoding: bytes, as: UTF8.self), to: 40))
    }

    /// What the keyboard sends, read as keys: whole, a byte at a time and cut in two give the
    /// same keys (a sequence split across reads is still one key), with the mouse asked for and
    /// not; unasked, no mouse key comes out.
    public static func keys(_ bytes: [UInt8]) {
        for mouse in [false, true] {
            var whole = KeyDecoder(), bytewise = KeyDecoder(), split = KeyDecoder()
            whole.mouse = mouse; bytewise.mouse = mouse; split.mouse = mouse
            let expected = whole.feed(bytes, now: 0) + whole.expire(now: 1 << 30)
            let oneByOne = bytes.flatMap { bytewise.feed([$0], now: 0) } + bytewise.expire(now: 1 << 30)
            let cut = bytes.count / 2
            let halves = split.feed(bytes[..<cut], now: 0) + split.feed(bytes[cut...], now: 0) + split.expire(now: 1 << 30)
            precondition(oneByOne == expected && halves == expected, "keys differ as the bytes are cut")
            precondition(whole.due == nil, "a sequence still waits after its time")
            if !mouse, expected.contains(where: { if case .mouse = $0 { true } else { false } }) {
                fatalError("a mouse key with the mouse not asked for")
            }
        }
    }

    /// Text made safe must hold no control character (C0, DEL, C1) and no bidi override.
    static func checkInert(_ text: String) {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                fatalError("U+\(String(v, radix: 16)) survived TerminalText")
            }
        }
    }
}
