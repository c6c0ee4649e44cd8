import Glibc
import PhotoGridCore
import GalleryFormats
import PhotoGridSamples
import PhotoGridTestSupport

/// `photogrid-bench parse`: how fast remote galleries' JSON and manifests are read, and what
/// memory they take. Each case runs in a process of its own (this program again, with the case
/// named), so that its peak resident memory is its own.
enum ParseReport {
    static let cases = ["table", "json", "json-foundation", "listing", "minimal", "typical", "typical-foundation",
                        "urls", "urls-foundation"]

    package static func run(program: String, runs: Int) throws {
        for line in Machine.describe() { print("- " + line) }
        print("")
        print(Table.row(["input", "bytes", "parse (best of \(runs))", "MB/s", "resident before", "held after", "peak during"]))
        print(Table.rule(7))
        for name in cases {
            let child = try Subprocess.run([program, "parse", name, String(runs)])
            guard child.status == 0 else { print("| \(name) | failed: \(child.errorText) |"); continue }
            // The child printed its row but the last cell, which only the parent can measure.
            print(String(decoding: child.output, as: UTF8.self) + " \(child.maxResidentKilobytes / 1024) MB |")
        }
    }

    /// One case, printed as a table row without its last cell (the parent adds the peak).
    static func runCase(_ name: String, runs: Int) throws {
        let bytes: [UInt8]
        let label: String
        switch name {
        case "table":
            // Without its "photogrid" member the manifest is refused right after the JSON pass,
            // which times that pass alone through the package API.
            var refused = manifest(photos: 1_000_000, typical: true)
            refused[8] = UInt8(ascii: "j") // {"photogrid" → {"photogrjd"
            bytes = refused
            label = "JSON syntax check and value table alone (the last manifest, refused)"
        case "json":
            bytes = objects(200_000)
            label = "JSON, 200,000 objects (to a JSONValue tree)"
        case "json-foundation":
            bytes = objects(200_000)
            label = "the same with FoundationEssentials' JSONDecoder (to structs)"
        case "urls", "urls-foundation":
            bytes = Array(FoundationParse.references(1_000_000).joined(separator: "\n").utf8)
            label = name == "urls" ? "1,000,000 relative URLs resolved by RemoteURL" : "the same by FoundationEssentials' URL"
        case "typical-foundation":
            bytes = manifest(photos: 1_000_000, typical: true)
            label = "the typical manifest with JSONDecoder (to structs) and URL (originals resolved)"
        case "listing":
            bytes = listing(100_000)
            label = "HTML listing, 100,000 links (nginx's layout)"
        case "minimal":
            bytes = manifest(photos: 1_000_000, typical: false)
            label = "manifest, 1,000,000 photos: id and original"
        default:
            bytes = manifest(photos: 1_000_000, typical: true)
            label = "manifest, 1,000,000 photos: 6 fields and a template of 3 sizes"
        }
        // Split before the clock starts: only the resolving is timed.
        let references = name.hasPrefix("urls") ? String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init) : []
        let before = residentMB()
        var held: [Any] = []
        let seconds = try (0..<runs).map { _ in
            held = []
            return try Timing.time {
                if name == "table" {
                    let url = RemoteURL("https://photos.example/g/manifest.json")!
                    do {
                        _ = try RemoteDocument.classify(body: bytes, contentType: "application/json", url: url)
                    } catch let error as ManifestError {
                        precondition(error.message.contains("without a \"photogrid\" member"))
                    }
                } else if name == "json" {
                    held = [try JSONValue.parse(bytes)]
                } else if name == "json-foundation" {
                    held = [try FoundationParse.objects(bytes)]
                } else if name == "typical-foundation" {
                    held = [try FoundationParse.manifest(bytes)]
                } else if name == "urls" || name == "urls-foundation" {
                    held = [name == "urls" ? FoundationParse.resolveWithRemoteURL(references) : FoundationParse.resolveWithFoundation(references)]
                } else if name == "listing" {
                    let listing = DirectoryListing.parse(bytes, url: RemoteURL("http://photos.example/g/")!, contentType: "text/html")
                    precondition(listing?.files.count == 100_000)
                    held = [listing as Any]
                } else {
                    let manifest = try GalleryManifest.parse(bytes, url: RemoteURL("https://photos.example/g/manifest.json")!)
                    precondition(manifest.photos.count == 1_000_000)
                    held = [manifest]
                }
            }
        }.min() ?? 0
        let after = residentMB()
        print(Table.row([label, "\(bytes.count / 1_000_000) MB", "\(Table.fixed(seconds, 2)) s",
                         "\(Int(Double(bytes.count) / 1e6 / seconds))", "\(before) MB", "\(after - before) MB"]).dropLast(2), terminator: " |")
        withExtendedLifetime(held) {}
    }

    private static func objects(_ count: Int) -> [UInt8] {
        var text: [UInt8] = Array("[".utf8)
        for n in 0..<count {
            if n > 0 { text += ",\n".utf8 }
            text += #"{"id": "photo-\#(n)", "width": \#(4000 + n % 7), "caption": "Caf\u00e9 \#(n)", "ok": true}"#.utf8
        }
        return text + "]".utf8
    }

    private static func listing(_ count: Int) -> [UInt8] {
        var text = Array("<html>\n<head><title>Index of /g/</title></head>\n<body>\n<h1>Index of /g/</h1><hr><pre><a href=\"../\">../</a>\n".utf8)
        for n in 0..<count {
            text += "<a href=\"IMG%20\(1_000_000 + n).jpg\">IMG \(1_000_000 + n).jpg</a>                                 14-Jul-2024 19:42             3456789\n".utf8
        }
        return text + "</pre><hr></body>\n</html>\n".utf8
    }

    private static func manifest(photos: Int, typical: Bool) -> [UInt8] {
        var text = Array(#"{"photogrid": 1, "title": "Bench", "#.utf8)
        if typical { text += #""renditions": {"template": "renditions/{id}/{size}.jpg", "sizes": [256, 1024, 2048]}, "#.utf8 }
        text += "\"photos\": [\n".utf8
        for n in 0..<photos {
            let id = typical ? "2024/alps/IMG_\(1_000_000 + n)" : "p\(n)"
            if n > 0 { text += ",\n".utf8 }
            text += (typical
                ? #"{"id": "\#(id)", "width": 4000, "height": 3000, "bytes": \#(3_000_000 + n), "taken": "2024-07-14T19:42:05", "original": "originals/\#(id).jpg"}"#
                : #"{"id": "\#(id)", "original": "originals/\#(id).jpg"}"#).utf8
        }
        return text + "\n]}".utf8
    }

    /// Resident memory now, from /proc/self/statm.
    private static func residentMB() -> Int {
        let fields = (try? FileReader.readText("/proc/self/statm"))?.split(separator: " ") ?? []
        let pages = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
