import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// What a change of the list costs (issue 46): 10,000 photos at 6 columns, the first screen
/// drawn and its prefetches made, then the date order (`s`), then only the photos of 4 stars and
/// more (`f` `4`). Decodes are counted photo by photo: a photo decoded before a change and shown
/// on the new first screen must not be decoded again, and the focus stays on its photo.
///
/// The folder is made for it: 10,000 small JPEGs, each with its own date taken. The first 60 by
/// name (the first screens and their prefetches) are dated in the reverse of their names, the
/// rest after them in name order, so the date order's first screen holds photos decoded for the
/// name order's, in other places; every second photo has 4 stars in its sidecar, so the filter's
/// first screen holds some of them and some never shown.
enum ListChangeReport {
    /// Counts each photo's decodes (not thumbnails or details) and passes them to the decoder.
    final class CountingDecoder: PhotoDecoding {
        let decoder = PhotoDecoder(gate: MemoryGate())
        private let counts = Locked<[PhotoSource: Int]>([:])

        var memoryGate: MemoryGate? { decoder.memoryGate }
        func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
            counts.withLock { $0[photo.source, default: 0] += 1 }
            return try decoder.image(of: photo, from: bytes, covering: size, atMost: limit)
        }
        func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? { decoder.thumbnail(of: photo, from: bytes) }
        var now: [PhotoSource: Int] { counts.withLock { $0 } }
        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    }

    static let photos = 10_000, firstDated = 60

    static func run() throws {
        var template = Array("/tmp/photogrid-bench-list-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = system("rm -rf '\(folder)'") }
        let made = try Timing.time { try makeFolder(folder) }
        print("photogrid-bench list: \(photos) photos of 320x240 in \(folder), made in \(Table.fixed(made, 1)) s")

        let scanned = try FolderScanner().scan(RawPath(folder))
        let decoder = CountingDecoder()
        let session = GridSession(photos: scanned, mode: .sixel(colors: 256), fit: .fill, cacheBytes: 512 << 20, decoder: decoder) {}
        defer { session.pipeline.stop() }
        let controller = GridController(title: "list", session: session, screen: ScreenMetrics(columns: 240, rows: 67, cellWidth: 10, cellHeight: 20),
                                        columns: 6, modeName: "sixel")
        let reader = InfoReader(loader: FileLoader(), decoder: PhotoDecoder())
        controller.allowChanges(order: nil, showHidden: false, rescan: nil) { photos in
            CaptureDates(photos: photos, reader: reader, catalog: nil) {}
        }
        controller.gallery.readers.readRatings = { photos in RatingScan(photos: photos, reader: reader) {} }

        print(Table.row(["step", "photos shown", "first screen", "of them decoded before", "decoded again", "decodes in all", "focus kept", "ms to settle"]))
        print(Table.rule(8))
        var seconds = Timing.time { settle(controller, until: { true }) }
        print(Table.row(["name order, first screen", "\(controller.session.photos.count)", "\(firstScreen(controller).count)", "-", "-",
                         "\(decoder.total)", "-", Table.fixed(seconds * 1000, 0)]))
        for (step, keys, done) in [("s: the date order", [Key.character("s")], { controller.order?.key == .date }),
                                   ("f 4: 4 stars and more", [.character("f"), .character("4")], { controller.gallery.filter != .all })] {
            let before = decoder.now, total = decoder.total
            let focused = controller.photo(at: controller.position.focus)
            seconds = Timing.time {
                for key in keys { controller.handle(key) }
                settle(controller, until: done)
            }
            let shown = firstScreen(controller)
            let after = decoder.now
            let decodedBefore = shown.filter { (before[controller.session.table[$0].source] ?? 0) > 0 }
            let again = decodedBefore.filter { after[controller.session.table[$0].source] != before[controller.session.table[$0].source] }
            let kept = controller.photo(at: controller.position.focus) == focused
            print(Table.row([step, "\(controller.session.photos.count)", "\(shown.count)", "\(decodedBefore.count)", "\(again.count)",
                             "\(decoder.total - total)", kept ? "yes" : "no", Table.fixed(seconds * 1000, 0)]))
        }
    }

    /// The photos on the grid's first screen as it is now.
    static func firstScreen(_ controller: GridController) -> [PhotoID] {
        controller.layout.visibleIndexes(topRow: controller.position.topRow, photos: controller.session.photos.count).map(controller.photo(at:))
    }

    /// Frames until `done` holds, every tile on screen is drawn and the pipeline has nothing left.
    static func settle(_ controller: GridController, until done: () -> Bool) {
        repeat {
            _ = controller.frame()
            controller.takeNews()
            usleep(5_000)
        } while !done() || controller.contents().loading > 0 || !controller.session.pipeline.isIdle
    }

    static func makeFolder(_ folder: String) throws {
        for index in 0..<photos {
            // A tenth of a second apart, the first ones in the reverse of their names.
            let order = index < firstDated ? firstDated - 1 - index : index
            let stamp = 1_600_000_000 + order
            var time = time_t(stamp), parts = tm()
            gmtime_r(&time, &parts)
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let day = "\(parts.tm_year + 1900):\(two(parts.tm_mon + 1)):\(two(parts.tm_mday))"
            let date = day + " \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
            let colour = RGB(UInt8(index % 251), UInt8((index / 7) % 253), UInt8((index / 49) % 241))
            let image = RGBImage(width: 320, height: 240, fill: colour)
            let jpeg = try JPEG.encode(image, quality: 80, app1: ExifBuilder.app1(ExifFields(dateTimeOriginal: date)))
            let name = folder + "/IMG_" + String(String(100_000 + index).dropFirst()) + ".jpg"
            try Inputs.write(jpeg, to: name)
            if index % 2 == 0 { _ = Sidecar.of(RawPath(name)).save(rating: 4) }
        }
    }
}
