import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The hostile-file corpus in Tests/Fixtures/bad/ (made by its make.py; why each case is there
/// is in its README.md): each file is decoded where it is a valid image and otherwise gives its
/// reason, at every size the grid and the zoom view ask for, never a trap; and a folder of them
/// prints as a grid of pictures and reasons with bounded memory.
@Suite struct BadFilesTests {
    static let folder = Paths.root + "/Tests/Fixtures/bad"

    /// `partial`: the file ends early and what it has is shown, marked.
    enum Outcome: Equatable { case decoded, partial, reason(String) }

    /// What each file must give at a tile's size (64 pixels), a large tile's (512) and the zoom
    /// view's (2048): a progressive file has everything a small picture needs after its first
    /// scans, so it is shown small, and large it is shown as far as it goes (cut short) or
    /// refused (hostile). A file cut short shows what it has, marked, at every size (a progressive
    /// one cut after the scans a small tile needs too: it is not whole); one cut in its header says why.
    static let expected: [String: (small: Outcome, large: Outcome)] = [
        "12-bit-samples.jpg": (.reason("unsupported JPEG (12-bit)"), .reason("unsupported JPEG (12-bit)")),
        "arithmetic-coded.jpg": (.decoded, .decoded),
        "cmyk-adobe.jpg": (.decoded, .decoded),
        "empty.jpg": (.reason("empty file"), .reason("empty file")),
        "exif-ifd-chain-loops-to-itself.jpg": (.decoded, .decoded),
        "exif-offsets-outside-the-segment.jpg": (.decoded, .decoded),
        "exif-thumbnail-past-the-segment.jpg": (.decoded, .decoded),
        "fill-bytes-instead-of-a-marker.jpg": (.decoded, .decoded),
        "grayscale.jpg": (.decoded, .decoded),
        "header-claims-65535x65535.jpg": (.reason("too large"), .reason("too large")),
        "header-claims-zero-width.jpg": (.reason("corrupt JPEG"), .reason("corrupt JPEG")),
        "icc-profile-of-1-mb.jpg": (.decoded, .decoded),
        "only-the-start-marker.jpg": (.reason("truncated JPEG"), .reason("truncated JPEG")),
        "png-named-jpg.jpg": (.decoded, .decoded),      // a real PNG: shown for what it is
        "progressive-cut-during-the-fifth-scan.jpg": (.partial, .partial),
        "progressive-with-5000-scans.jpg": (.decoded, .reason("corrupt JPEG")),
        "random-bytes.jpg": (.reason("not a JPEG"), .reason("not a JPEG")),
        "segment-length-zero.jpg": (.decoded, .decoded),
        "text-named-jpg.jpg": (.reason("not a JPEG"), .reason("not a JPEG")),
        "thousands-of-empty-segments.jpg": (.decoded, .decoded),
        "truncated-before-the-end-marker.jpg": (.partial, .partial),
        "truncated-halfway-through-the-scan.jpg": (.partial, .partial),
        "truncated-in-the-frame-header.jpg": (.reason("truncated JPEG"), .reason("truncated JPEG")),
        "xmp-segment-full-and-unclosed.jpg": (.decoded, .decoded),
        // Made by make_mpf.py: a Multi-Picture preview that is none; the photo itself.
        "mpf-preview-past-the-file.jpg": (.decoded, .decoded),
        "mpf-preview-of-random-bytes.jpg": (.decoded, .decoded),
        "mpf-preview-claims-65535x65535.jpg": (.decoded, .decoded),
        "mpf-entry-list-of-a-billion-entries.jpg": (.decoded, .decoded),
        // Made by make_formats.py.
        "png-truncated-in-the-image-data.png": (.partial, .partial),
        "png-chunk-crc-wrong.png": (.reason("corrupt PNG"), .reason("corrupt PNG")),
        "png-header-claims-100000x100000.png": (.reason("too large"), .reason("too large")),
        "png-zlib-stream-expands-to-1-gb.png": (.decoded, .decoded),
        "gif-truncated-in-the-first-frame.gif": (.reason("truncated GIF"), .reason("truncated GIF")),
        "gif-screen-65535x65535.gif": (.reason("too large"), .reason("too large")),
        "gif-animation-of-100000-frames.gif": (.decoded, .decoded),
        "gif-lzw-codes-past-the-table.gif": (.reason("corrupt GIF"), .reason("corrupt GIF")),
        "webp-truncated-in-the-image-data.webp": (.partial, .partial),
        "webp-chunk-size-past-the-file.webp": (.reason("corrupt WebP"), .reason("corrupt WebP")),
        "heic-truncated-in-the-image-data.heic": (.reason("truncated HEIF"), .reason("truncated HEIF")),
        "avif-truncated-in-the-image-data.avif": (.reason("truncated AVIF"), .reason("truncated AVIF")),
        "heic-ispe-claims-100000x100000.heic": (.reason("too large"), .reason("too large")),
        "heic-meta-box-size-past-the-file.heic": (.reason("corrupt HEIF"), .reason("corrupt HEIF")),
        "avif-ispe-claims-100000x100000.avif": (.reason("too large"), .reason("too large")),
        // libavif scales the coded picture to what `ispe` says; the tile shows it.
        "avif-ispe-smaller-than-the-coded-picture.avif": (.decoded, .decoded),
        "avif-av1-data-damaged.avif": (.reason("corrupt AVIF"), .reason("corrupt AVIF")),
    ]

    static func photos() throws -> [Photo] { try FolderScanner().scan(RawPath(folder)) }

    static func outcome(_ photo: Photo, size: Int) -> Outcome {
        do throws(DecodeError) {
            let decoded = try PhotoDecoder().image(of: photo, covering: size, atMost: size * 2)
            guard decoded.image.width > 0 && decoded.image.height > 0 else { return .reason("empty image") }
            return decoded.isPartial ? .partial : .decoded
        } catch {
            return .reason(error.reason)
        }
    }

    @Test func theCorpusIsWhatTheTableSays() throws {
        let names = try Self.photos().map { $0.relativePath.description }
        #expect(Set(names) == Set(Self.expected.keys))
    }

    @Test(arguments: [64, 512, 2048])
    func everyFileGivesAPictureOrItsReason(size: Int) throws {
        let started = Date()
        for photo in try Self.photos() {
            guard let expected = Self.expected[photo.relativePath.description] else { continue }
            let outcome = Self.outcome(photo, size: size)
            #expect(outcome == (size <= 64 ? expected.small : expected.large), "\(photo.relativePath) at \(size)")
            // The other ways a file is read: its details and its EXIF thumbnail, never a trap.
            _ = PhotoDecoder.readInfo(photo)
            _ = PhotoDecoder().thumbnail(of: photo)
        }
        // Not a speed figure: a hang detector. Before the scan limit, one file alone took 13 s.
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// The valid oddities look like the photo they were made from (the sample gallery's
    /// beach-01.jpg at a quarter size): CMYK's inversion and grey's single channel handled.
    @Test func theUnusualButValidOnesLookRight() throws {
        let source = Photo(path: RawPath(Paths.gallery + "/travel/beach-01.jpg"), relativePath: RawPath("beach-01.jpg"))
        let reference = try PhotoDecoder().image(of: source, covering: 200, atMost: 200).image
        for name in ["arithmetic-coded.jpg", "cmyk-adobe.jpg", "grayscale.jpg"] {
            let photo = try #require(try Self.photos().first { $0.relativePath.description == name })
            let image = try PhotoDecoder().image(of: photo, covering: 200, atMost: 200).image
            #expect(image.width == reference.width && image.height == reference.height, "\(name)")
            guard image.width == reference.width, image.height == reference.height else { continue }
            var difference = 0
            for i in stride(from: 0, to: image.pixels.count, by: 3) {
                if name == "grayscale.jpg" {
                    let grey = (Int(reference.pixels[i]) * 299 + Int(reference.pixels[i + 1]) * 587 + Int(reference.pixels[i + 2]) * 114) / 1000
                    difference += abs(Int(image.pixels[i]) - grey)
                } else {
                    difference += (0..<3).map { abs(Int(image.pixels[i + $0]) - Int(reference.pixels[i + $0])) }.reduce(0, +) / 3
                }
            }
            let mean = Double(difference) / Double(image.width * image.height)
            #expect(mean < 8, "\(name): mean difference \(mean)")
        }
    }

    /// The whole corpus as a grid: every tile shows a picture or its reason, nothing traps, and
    /// memory stays small (the 65535x65535 header would ask for 12 GB if it were believed).
    @Test(.startsPrograms) func theFolderPrintsAsAGridOfPicturesAndReasons() throws {
        let home = TestImages.scratchFolder("bad-print")
        defer { TestImages.remove(home) }
        // Tall enough for every file's row: the sheet has whole rows only.
        let result = try Subprocess.runMeasuringMemory([Paths.binary, "--print", "--mode", "halfblock", "--size", "240x150",
                                                        "--columns", "6", Self.folder], environment: ["XDG_CACHE_HOME": home])
        #expect(result.status == 0, "\(result.errorText)")
        let text = String(decoding: result.output, as: UTF8.self)
        for reason in ["empty file", "truncated JPEG", "too large", "corrupt JPEG", "not a JPEG",
                       "unsupported JPEG (12-bit)"] {
            #expect(text.contains(reason), "no tile says \(reason)")
        }
        // A sanitizer's shadow memory and quarantine are not photogrid's.
        #expect(Paths.sanitizer != nil || result.maxResidentKilobytes < 300 * 1024, "peak \(result.maxResidentKilobytes / 1024) MB")
    }
}
