import Foundation
import Testing
@testable import PhotoGridDecoding
import PhotoGridTestFixtures

/// Originals: whole, in ranges, conditionally; byte for byte against the files.
@Suite(.startsPrograms) struct OriginalServingTests {
    static func path(_ id: String) -> String { "/originals/" + ServedGallery.encoded(id) }

    @Test func originalsAreTheFilesByteForByte() async throws {
        try await ServedGallery.with { served in
            for id in GalleryFixture.servedIDs {
                let reply = try await served.request(Self.path(id))
                let file = try served.fixture.bytes(id)
                #expect(reply.status == 200, "\(id)")
                #expect(reply.body == file, "\(id)")
                #expect(reply.header("Content-Length") == String(file.count))
                #expect(reply.header("Content-Type") == "image/jpeg")
                #expect(reply.header("Accept-Ranges") == "bytes")
                #expect(reply.header("ETag")?.hasPrefix("\"") == true)
                #expect(reply.header("Last-Modified")?.hasSuffix(" GMT") == true)
            }
        }
    }

    @Test func aLargeFileIsStreamedWhole() async throws {
        try await ServedGallery.with({ configuration in
            // 24 MB: a JPEG with junk after its end, as some cameras leave.
            var bytes = (try? GalleryFixture.smallJPEG()) ?? []
            bytes += (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            _ = FileManager.default.createFile(atPath: configuration.folder + "/large.jpg", contents: Data(bytes))
        }) { served in
            let file = try served.fixture.bytes("large.jpg")
            let reply = try await served.request("/originals/large.jpg")
            #expect(reply.status == 200)
            #expect(reply.body.count == file.count)
            #expect(reply.body == file)
            let middle = try await served.request("/originals/large.jpg", headers: [("Range", "bytes=12000000-12999999")])
            #expect(middle.status == 206)
            #expect(middle.body == Array(file[12_000_000..<13_000_000]))
        }
    }

    @Test func rangesGiveExactlyTheBytesAskedFor() async throws {
        try await ServedGallery.with { served in
            let id = GalleryFixture.night
            let file = try served.fixture.bytes(id)
            let size = file.count
            let cases: [(String, Range<Int>)] = [
                ("bytes=0-9", 0..<10),
                ("bytes=100-", 100..<size),
                ("bytes=-500", (size - 500)..<size),
                ("bytes=-\(size * 10)", 0..<size),                 // a suffix longer than the file: all of it
                ("bytes=\(size - 1)-\(size + 1000)", (size - 1)..<size), // an end past the end is cut
                ("bytes=7-7", 7..<8),
            ]
            for (header, range) in cases {
                let reply = try await served.request(Self.path(id), headers: [("Range", header)])
                #expect(reply.status == 206, "\(header)")
                #expect(reply.body == Array(file[range]), "\(header)")
                #expect(reply.header("Content-Range") == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)", "\(header)")
                #expect(reply.header("Content-Length") == String(range.count), "\(header)")
            }
        }
    }

    @Test func unsatisfiableRangesGet416() async throws {
        try await ServedGallery.with { served in
            let id = GalleryFixture.night
            let size = try served.fixture.bytes(id).count
            for header in ["bytes=\(size)-", "bytes=\(size + 5)-\(size + 10)", "bytes=-0"] {
                let reply = try await served.request(Self.path(id), headers: [("Range", header)])
                #expect(reply.status == 416, "\(header)")
                #expect(reply.header("Content-Range") == "bytes */\(size)", "\(header)")
            }
        }
    }

    @Test func rangesThatAreNotOneValidRangeGetTheWholeFile() async throws {
        try await ServedGallery.with { served in
            let id = GalleryFixture.night
            let file = try served.fixture.bytes(id)
            for header in ["bytes=10-5", "bytes=0-1,5-6", "lines=1-2", "bytes=a-b", "bytes=-", "bytes=99999999999999999999999-"] {
                let reply = try await served.request(Self.path(id), headers: [("Range", header)])
                let expected = header.hasPrefix("bytes=999") ? 416 : 200
                #expect(reply.status == expected, "\(header)")
                if expected == 200 { #expect(reply.body == file, "\(header)") }
            }
        }
    }

    @Test func ifRangeSendsTheRangeOnlyForTheCurrentFile() async throws {
        try await ServedGallery.with { served in
            let path = Self.path(GalleryFixture.night)
            let file = try served.fixture.bytes(GalleryFixture.night)
            let whole = try await served.request(path)
            let etag = try #require(whole.header("ETag"))
            let date = try #require(whole.header("Last-Modified"))

            let current = try await served.request(path, headers: [("Range", "bytes=0-9"), ("If-Range", etag)])
            #expect(current.status == 206)
            #expect(current.body == Array(file[0..<10]))
            let byDate = try await served.request(path, headers: [("Range", "bytes=0-9"), ("If-Range", date)])
            #expect(byDate.status == 206)
            let stale = try await served.request(path, headers: [("Range", "bytes=0-9"), ("If-Range", "\"1-2-3\"")])
            #expect(stale.status == 200)
            #expect(stale.body == file)
            let weak = try await served.request(path, headers: [("Range", "bytes=0-9"), ("If-Range", "W/" + etag)])
            #expect(weak.status == 200)

            // The file changes: the tag the client kept is stale now.
            try Data(file + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: served.fixture.path(GalleryFixture.night)))
            let changed = try await served.request(path, headers: [("Range", "bytes=0-9"), ("If-Range", etag)])
            #expect(changed.status == 200)
            #expect(changed.body.count == file.count + 2)
            #expect(changed.header("ETag") != etag)
        }
    }

    @Test func ifNoneMatchGetsNotModified() async throws {
        try await ServedGallery.with { served in
            let path = Self.path(GalleryFixture.awkward)
            let etag = try #require(try await served.request(path).header("ETag"))
            for header in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
                let reply = try await served.request(path, headers: [("If-None-Match", header)])
                #expect(reply.status == 304, "\(header)")
                #expect(reply.body.isEmpty)
                #expect(reply.header("ETag") == etag)
            }
            #expect(try await served.request(path, headers: [("If-None-Match", "\"other\"")]).status == 200)
        }
    }

    @Test func headAnswersWithoutABody() async throws {
        try await ServedGallery.with { served in
            let path = Self.path(GalleryFixture.rotated)
            let size = try served.fixture.bytes(GalleryFixture.rotated).count
            let head = try await served.request(path, method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(size))
            let ranged = try await served.request(path, method: .HEAD, headers: [("Range", "bytes=0-9")])
            #expect(ranged.status == 206)
            #expect(ranged.header("Content-Length") == "10")
            #expect(ranged.body.isEmpty)
            // The connection is still good for a body after bodiless answers.
            #expect(try await served.request(path).body.count == size)
        }
    }
}
