import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridDiskCache
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
import PhotoGridTestFixtures

@Suite struct DiskTierStoreTests {
    @Test func tierImagesRoundTripAndAChangedPhotoMisses() throws {
        let folder = TestImages.scratchFolder("tierstore")
        defer { TestImages.remove(folder) }
        let cache = try #require(DiskCache(directory: folder + "/cache", limitBytes: 1 << 20))
        let store = DiskTierStore(cache: cache)
        let path = folder + "/photo.jpg"
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 64, height: 48), quality: 90), to: path)
        let photo = Photo(path: RawPath(path), relativePath: RawPath("photo.jpg"))
        let image = TestImages.gradient(width: 96, height: 64)
        store.save(DecodedImage(image: image, origin: .file(scaleEighths: 1, scans: 1), isComplete: true), of: photo, tier: .t64)
        let back = try #require(store.load(photo, tier: .t64))
        #expect(back.origin == .diskCache && back.isComplete)
        #expect(back.image.width == 96 && back.image.height == 64)
        #expect(TestImages.meanAbsoluteError(back.image, image) < 3)
        #expect(store.load(photo, tier: .t128) == nil)
        // The photo is rewritten (another size): the entry no longer applies.
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 80, height: 48), quality: 90), to: path)
        #expect(store.load(photo, tier: .t64) == nil)
    }

    func sixelRequest(cut: SixelCut? = SixelCut(cellWidth: 10, cellHeight: 20)) -> TileRequest {
        var request = TileRequest(photo: 0, width: 60, height: 40, fit: .fill, mode: .sixel(colors: 64))
        request.sixelCut = cut
        return request
    }

    /// A store in a scratch folder, a photo file in it, and what is kept for it is found by
    /// the entry's file.
    func scratchStore() throws -> (folder: String, store: DiskTierStore, photo: Photo) {
        let folder = TestImages.scratchFolder("tilestore")
        let cache = try #require(DiskCache(directory: folder + "/cache", limitBytes: 1 << 22))
        let path = folder + "/photo.jpg"
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 64, height: 48), quality: 90), to: path)
        return (folder, DiskTierStore(cache: cache), Photo(path: RawPath(path), relativePath: RawPath("photo.jpg")))
    }

    @Test func encodedTilesRoundTripUnderEverythingThatChangesTheirBytes() throws {
        let (folder, store, photo) = try scratchStore()
        defer { TestImages.remove(folder) }
        let image = TestImages.gradient(width: 60, height: 40)
        let request = sixelRequest()
        let tile = TileEncoder().encode(image, for: request)
        store.saveTile(tile, of: photo, request: request)
        let back = try #require(store.loadTile(photo, request: request))
        #expect(back.sixelParts?.map(\.bytes) == tile.sixelParts?.map(\.bytes))
        #expect(back.sixelParts?.map(\.column) == tile.sixelParts?.map(\.column))
        // Anything else that changes the bytes misses: colours, cell size, the terminal's limit,
        // the cut rows, the fit, a crop.
        var other = request; other.mode = .sixel(colors: 256)
        #expect(store.loadTile(photo, request: other) == nil)
        #expect(store.loadTile(photo, request: sixelRequest(cut: SixelCut(cellWidth: 9, cellHeight: 20))) == nil)
        #expect(store.loadTile(photo, request: sixelRequest(cut: SixelCut(cellWidth: 10, cellHeight: 20, maxWidth: 1000, maxHeight: 1000))) == nil)
        other = request; other.keptRows = 20
        #expect(store.loadTile(photo, request: other) == nil)
        other = request; other.fit = .fit
        #expect(store.loadTile(photo, request: other) == nil)
        other = request; other.crop = CropRegion(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(store.loadTile(photo, request: other) == nil)
        // Previews are not kept.
        #expect(!store.keepsTiles(for: request.preview))
        // The photo changes: its tiles no longer apply.
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 80, height: 48), quality: 90), to: photo.source.description)
        #expect(store.loadTile(photo, request: request) == nil)
    }

    @Test func kittyAndITermTilesRoundTrip() throws {
        let (folder, store, photo) = try scratchStore()
        defer { TestImages.remove(folder) }
        let image = TestImages.gradient(width: 30, height: 20)
        for mode in [RenderMode.kitty(.inline), .kitty(.file), .iterm] {
            let request = TileRequest(photo: 0, width: 30, height: 20, fit: .fill, mode: mode)
            let tile = TileEncoder().encode(image, for: request)
            store.saveTile(tile, of: photo, request: request)
            let back = try #require(store.loadTile(photo, request: request), "\(mode)")
            switch (tile, back) {
            case (.kitty(let a), .kitty(let b)):
                #expect(a.payload == b.payload && a.width == b.width && a.height == b.height && a.isFile == b.isFile)
                // A new serial: the terminal is sent it as a new picture if it holds an older one.
                #expect(a.serial != b.serial)
            case (.iterm(let a), .iterm(let b)): #expect(a == b)
            default: Issue.record("\(mode): \(back)")
            }
        }
    }

    /// Half-block lines, in both colour modes, each under its own; a line holding anything but
    /// colours and blocks (a whole record, written by something else) is a miss, deleted.
    @Test func halfBlockTilesRoundTripAndOnlyColoursAndBlocksAreDrawn() throws {
        let (folder, store, photo) = try scratchStore()
        defer { TestImages.remove(folder) }
        let image = TestImages.gradient(width: 30, height: 21)
        for colors in [HalfBlock.Colors.trueColor, .palette256] {
            let request = TileRequest(photo: 0, width: 30, height: 21, fit: .fill, mode: .halfBlock(colors))
            let tile = TileEncoder().encode(image, for: request)
            guard case .cells(let lines) = tile else { Issue.record("\(tile)"); continue }
            #expect(lines.count == 11)
            store.saveTile(tile, of: photo, request: request)
            guard case .cells(let back)? = store.loadTile(photo, request: request) else { Issue.record("\(colors): a miss"); continue }
            #expect(back == lines)
        }
        let request = TileRequest(photo: 0, width: 30, height: 21, fit: .fill, mode: .halfBlock(.trueColor))
        #expect(store.loadTile(photo, request: TileRequest(photo: 0, width: 30, height: 23, fit: .fill, mode: .halfBlock(.trueColor))) == nil)
        let photoFile = try #require(photo.file)
        let variant = try #require(TileRecord.variant(for: request))
        let key = try #require(DiskCache.FileKey(file: photoFile, variant: variant))
        let file = store.cache.entryPath(for: key)
        for foreign in [Array("\u{1B}]0;title\u{07}\u{1B}[0m".utf8), Array("\u{1B}[31m \u{1B}[0m\n".utf8), Array("\u{1B}[0".utf8)] {
            var payload: [UInt8] = [4, 11, 0, 0, 0]
            for _ in 0..<11 {
                payload += [UInt8(foreign.count), 0, 0, 0] + foreign
            }
            TestImages.write(DiskCacheRecord.encode(key, payload: payload), to: file)
            #expect(store.loadTile(photo, request: request) == nil, "\(foreign)")
            #expect(access(file, F_OK) != 0, "not deleted")
        }
        // The same record with a line of colours and blocks only is drawn: the check is not
        // refusing everything.
        let good = Array("\u{1B}[38;2;1;2;3;48;5;17m\u{2580} \u{1B}[0m".utf8)
        var payload: [UInt8] = [4, 11, 0, 0, 0]
        for _ in 0..<11 { payload += [UInt8(good.count), 0, 0, 0] + good }
        TestImages.write(DiskCacheRecord.encode(key, payload: payload), to: file)
        guard case .cells(let lines)? = store.loadTile(photo, request: request) else { Issue.record("a good record missed"); return }
        #expect(lines == Array(repeating: good, count: 11))
    }

    /// A damaged file, one cut short, and a whole record whose payload is no picture: each a
    /// miss, deleted, never drawn.
    @Test func aDamagedOrForeignTileIsAMissAndDeleted() throws {
        let (folder, store, photo) = try scratchStore()
        defer { TestImages.remove(folder) }
        let request = sixelRequest()
        let tile = TileEncoder().encode(TestImages.gradient(width: 60, height: 40), for: request)
        let variant = try #require(TileRecord.variant(for: request))
        let photoFile = try #require(photo.file)
        let key = try #require(DiskCache.FileKey(file: photoFile, variant: variant))
        let file = store.cache.entryPath(for: key)
        for damage in ["flip", "cut", "foreign"] {
            store.saveTile(tile, of: photo, request: request)
            var bytes = try #require(TestImages.read(file))
            switch damage {
            case "flip": bytes[bytes.count - 100] ^= 0x10
            case "cut": bytes.removeLast(1000)
            default: bytes = DiskCacheRecord.encode(key, payload: [1, 1, 0, 0, 0] + Array(repeating: 0x41, count: 64))
            }
            TestImages.write(bytes, to: file)
            #expect(store.loadTile(photo, request: request) == nil, "\(damage)")
            #expect(access(file, F_OK) != 0, "\(damage): not deleted")
        }
    }
}
