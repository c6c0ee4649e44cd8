import Testing
@testable import PhotoGridCatalog
@testable import PhotoGridSystem
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `--filter` as a user types it: photos made with their own cameras, exposures, dates and
/// exiftool-written keywords and labels, and the contact sheet shows those that match, from a
/// cold catalog and from a warm one, or says plainly that none does.
@Suite(.startsPrograms, .serialized) struct FilterTests: PhotogridInTmux {
    static func library() throws -> String {
        let root = TestImages.scratchFolder("filter-library")
        let shots: [(String, ExifFields)] = [
            ("2019/x100v-night.jpg", ExifFields(dateTimeOriginal: "2019:11:02 21:10:00", make: "FUJIFILM", model: "X100V",
                                                fNumber: .init(2, 1), iso: 6400)),
            ("2020/x100v-day.jpg", ExifFields(dateTimeOriginal: "2020:06:14 12:00:00", make: "FUJIFILM", model: "X100V",
                                              fNumber: .init(8, 1), iso: 160)),
            ("2021/sony-ice.jpg", ExifFields(dateTimeOriginal: "2021:03:01 09:30:00", make: "SONY", model: "ILCE-7M3",
                                             latitude: 63.4, longitude: -19.0, iso: 100)),
            ("2023/phone.jpg", ExifFields(dateTimeOriginal: "2023:07:14 19:42:05", make: "Apple", model: "iPhone 13")),
        ]
        for (path, exif) in shots {
            #expect(RawPath(root + "/" + path).parent.makeDirectories(permissions: 0o755))
            TestImages.write(try MetadataFixtures.jpeg(exif: exif), to: root + "/" + path)
        }
        // Keywords and a label as a photographer's tool writes them: in a sidecar, and in the photo.
        let sidecar = try Subprocess.run(["exiftool", "-q", "-XMP-dc:Subject=iceland", "-XMP-xmp:Label=Red",
                                          "-o", root + "/2021/sony-ice.jpg.xmp", root + "/2021/sony-ice.jpg"])
        #expect(sidecar.status == 0, "\(sidecar.errorText)")
        let own = try Subprocess.run(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Subject=iceland", root + "/2019/x100v-night.jpg"])
        #expect(own.status == 0, "\(own.errorText)")
        return root
    }

    static func shown(_ filter: String, _ root: String, cache: String) throws -> (status: Int32, names: [String], error: String) {
        let (status, output, error) = try Paths.photogrid(["--print", "--labels", "--mode", "halfblock", "--size", "200x40", "--columns", "4",
                                                           "--filter", filter, root], environment: ["XDG_CACHE_HOME": cache])
        let text = String(decoding: output, as: UTF8.self)
        let names = ["x100v-night", "x100v-day", "sony-ice", "phone"].filter { text.contains($0) }
        return (status, names, error)
    }

    @Test func theContactSheetShowsWhatMatches() throws {
        let root = try Self.library()
        defer { TestImages.remove(root) }
        let cache = TestImages.scratchFolder("filter-cache")
        defer { TestImages.remove(cache) }
        let cases: [(String, [String])] = [
            ("camera:x100v", ["x100v-night", "x100v-day"]),
            ("camera:x100v iso>=3200", ["x100v-night"]),
            ("keyword:iceland", ["x100v-night", "sony-ice"]),
            ("label:red", ["sony-ice"]),
            ("has:gps or 2023", ["sony-ice", "phone"]),
            ("2019..2020 -iso>=3200", ["x100v-day"]),
            ("f<2.8", ["x100v-night"]),
            ("phone", ["phone"]),
        ]
        for pass in ["cold", "warm"] {
            for (filter, expected) in cases {
                let (status, names, error) = try Self.shown(filter, root, cache: cache)
                #expect(status == 0 && names == expected, "\(pass) \(filter): \(names) \(error)")
            }
        }
        let catalog = try Catalog(path: cache + "/photogrid/" + Catalog.fileName)
        #expect(try catalog.count() == 4)
        let (status, names, error) = try Self.shown("camera:leica", root, cache: cache)
        #expect(status == 1 && names.isEmpty && error.contains("no photo here matches the filter camera:leica"), "\(error)")
        let (badStatus, _, badError) = try Self.shown("lens>50", root, cache: cache)
        #expect(badStatus == 2 && badError.contains("--filter: 'lens>50': lens is matched with lens:text"), "\(badError)")
    }

    /// In the grid: `--filter` at start, `\` to change it (a mistake said, the prompt kept), an
    /// empty line to turn it off; the focus stays on its photo; the rating filter holds beside it.
    @Test func theGridFiltersAsItIsTyped() throws {
        let root = try Self.library()
        defer { TestImages.remove(root) }
        let cache = TestImages.scratchFolder("filter-cache-tmux")
        defer { TestImages.remove(cache) }
        let tmux = try start("--filter camera:x100v '\(root)'", columns: 200, environment: ["XDG_CACHE_HOME": cache])
        var (ok, screen) = try tmux.waitFor { status($0).contains("1 of 2") && status($0).contains("filter camera:x100v: 2 hidden") }
        #expect(ok, "\(screen)")
        try tmux.send("\\")
        try tmux.send("C-u")
        try tmux.send("keyword:iceland or label:red")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { status($0).contains("filter keyword:iceland or label:red: 2 hidden") }
        #expect(ok, "\(screen)")
        try tmux.send("l")                     // the focus on sony-ice.jpg
        (ok, screen) = try tmux.waitFor { status($0).contains("sony-ice.jpg") && status($0).contains("2 of 2") }
        #expect(ok, "\(screen)")
        try tmux.send("\\")
        try tmux.send(" iso>>4")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { status($0).contains("'iso>>4': iso needs a number") && status($0).contains("filter: ") }
        #expect(ok, "a mistake is said and the prompt stays: \(screen)")
        try tmux.send("C-u")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { status($0).contains("filter off: 4 photos shown") && status($0).contains("sony-ice.jpg") }
        #expect(ok, "the focus stays on its photo: \(screen)")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}
