import Testing
@testable import GalleryFormats

/// The batch format (docs/remote-gallery.md, "Batches"): the request's list and the streamed
/// response, read whole, in pieces, and as a lying server would send it.
@Suite struct BatchTests {
    static func part(_ index: Int, status: Int = 200, _ body: String, headers: [(name: String, value: String)] = []) -> [UInt8] {
        Batch.partHead(index: index, status: status, length: body.utf8.count, headers: headers) + Array(body.utf8)
    }

    static let response = part(1, "second", headers: [("Content-Type", "image/jpeg"), ("ETag", "\"r1\"")])
        + part(0, status: 500, "", headers: [("Photogrid-Reason", "not a JPEG")]) + part(2, "") + Batch.end

    @Test func aRequestsListRoundTrips() {
        let targets = ["/renditions/a.jpg/256.jpg", "/t/abc/renditions/b%20c.jpg/512.jpg?v=2"]
        #expect(Batch.targets(in: Batch.requestBody(targets)) == targets)
        #expect(Batch.targets(in: Array("/a\r\n/b".utf8)) == ["/a", "/b"])
    }

    @Test(arguments: ["", "\n", "/a\n\n/b\n", "renditions/a.jpg\n", "/a b\n", "/a\u{7}\n", "/caf\u{e9}\n"])
    func listsThatAreNoBatchAreRefused(_ text: String) {
        #expect(Batch.targets(in: Array(text.utf8)) == nil)
    }

    @Test func aListHasItsLimits() {
        let many = Array(repeating: "/r", count: Batch.maxItems)
        #expect(Batch.targets(in: Batch.requestBody(many))?.count == Batch.maxItems)
        #expect(Batch.targets(in: Batch.requestBody(many + ["/r"])) == nil)
        #expect(Batch.targets(in: Array(repeating: UInt8(ascii: "/"), count: Batch.maxRequestBytes + 1)) == nil)
    }

    /// The opening batch's one line, and the lines that are not one.
    @Test func anOpeningRoundTripsAndKeepsToItsLimits() {
        let opening = Batch.Opening(count: 24, covering: 400)
        #expect(Batch.Opening(body: opening.body) == opening)
        #expect(Batch.Opening(body: Array("first 1 covering 1\r\n".utf8)) == Batch.Opening(count: 1, covering: 1))
        for text in ["", "first 24 covering\n", "first 0 covering 400\n", "first 257 covering 400\n", "first 24 covering 0\n",
                     "first 24 covering 99999999999\n", "first  24 covering 400\n", "last 24 covering 400\n", "first -1 covering 4\n",
                     "/renditions/a.jpg/256.jpg\n", "first 24 covering 400\nfirst 1 covering 1\n"] {
            #expect(Batch.Opening(body: Array(text.utf8)) == nil, "\(text)")
        }
        // It is no list of targets either: a server that knows no openings refuses it whole.
        #expect(Batch.targets(in: opening.body) == nil)
    }

    /// An opening's choices by the gallery's size: written and read back; the first whose
    /// bound the gallery is within is its screen, else the first line's.
    @Test func anOpeningChoosesByTheGallerysSize() {
        let opening = Batch.Opening(count: 24, covering: 400, bySize: [
            Batch.Opening.Choice(upTo: 2, count: 2, covering: 1200), Batch.Opening.Choice(upTo: 9, count: 9, covering: 600),
            Batch.Opening.Choice(upTo: 30, count: 30, covering: 320)])
        #expect(String(decoding: opening.body, as: UTF8.self)
                == "first 24 covering 400\nupto 2 first 2 covering 1200\nupto 9 first 9 covering 600\nupto 30 first 30 covering 320\n")
        #expect(Batch.Opening(body: opening.body) == opening)
        #expect(opening.screen(forPhotos: 1) == (2, 1200) && opening.screen(forPhotos: 2) == (2, 1200))
        #expect(opening.screen(forPhotos: 3) == (9, 600) && opening.screen(forPhotos: 30) == (30, 320))
        #expect(opening.screen(forPhotos: 31) == (24, 400) && opening.screen(forPhotos: 10_000) == (24, 400))
        #expect(opening.mostPhotos == 30)
        for text in ["upto 2 first 2 covering 1200\n", "first 24 covering 400\nupto 0 first 2 covering 1200\n",
                     "first 24 covering 400\nupto 2 first 2 covering\n", "first 24 covering 400\nupto 2 last 2 covering 9\n",
                     "first 24 covering 400\nupto 2 first 999 covering 9\n", "first 24 covering 400\nupto x first 2 covering 9\n",
                     "first 24 covering 400\n" + String(repeating: "upto 2 first 2 covering 9\n", count: 9)] {
            #expect(Batch.Opening(body: Array(text.utf8)) == nil, "\(text)")
        }
    }

    /// The server's choice for an opening is the client's (`RemotePhoto.source`): the smallest
    /// size whose short side covers what is asked, by the photo's shape.
    @Test func anOpeningTakesTheSizeTheClientWould() {
        let sizes = [256, 512, 1024]
        #expect(Batch.openingSize(sizes: sizes, covering: 300, width: 3000, height: 2000) == 512)    // 512 x 341
        #expect(Batch.openingSize(sizes: sizes, covering: 350, width: 3000, height: 2000) == 1024)   // 341 is short of it
        #expect(Batch.openingSize(sizes: sizes, covering: 300, width: nil, height: nil) == 512)       // assumed square
        #expect(Batch.openingSize(sizes: sizes, covering: 1200, width: 3000, height: 3000) == nil)   // the original's
    }

    @Test func aResponseReadWholeAndByteByByteGivesTheSameParts() {
        var whole = BatchReader(items: 3, maxPartBytes: 100)
        let parts = whole.feed(Self.response)
        #expect(parts.map(\.index) == [1, 0, 2])
        #expect(parts[0].body == Array("second".utf8))
        #expect(parts[0].header("etag") == "\"r1\"")
        #expect(parts[1].status == 500 && parts[1].header("Photogrid-Reason") == "not a JPEG" && parts[1].body.isEmpty)
        #expect(whole.ended && whole.finish() == nil)
        for size in [1, 2, 3, 7, 64] {
            var reader = BatchReader(items: 3, maxPartBytes: 100)
            var pieces: [BatchReader.Part] = []
            var at = 0
            while at < Self.response.count {
                pieces += reader.feed(Self.response[at..<min(at + size, Self.response.count)])
                at += size
            }
            #expect(pieces == parts, "in pieces of \(size)")
            #expect(reader.finish() == nil)
        }
    }

    static let lies: [(bytes: [UInt8], reason: String)] = [
        (part(3, "x") + Batch.end, "a part for an item never asked for"),
        (part(0, "x") + part(0, "y") + Batch.end, "two parts for one item"),
        (Batch.partHead(index: 0, status: 200, length: 101, headers: []), "a part of 101 bytes, past the limit of 100"),
        (part(0, "x") + Batch.end + Array("PART".utf8), "bytes after the end"),
        (Array("PART 0 200 1\r\nX-A: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: Batch.maxHeadBytes), "a part's head longer than 8192 bytes"),
        (Array("HTTP/1.1 200 OK\r\n\r\n".utf8), "not a part's head"),
        (Array("PART 0 2000 1\r\n\r\nx".utf8), "a part's status is not one"),
        (Array("PART 0 200 -1\r\n\r\n".utf8), "a part's length is not one"),
        (Array("PART 0 200 99999999999\r\n\r\n".utf8), "a part's length is not one"),
        (Array("PART 0 200 1\r\nno colon\r\n\r\nx".utf8), "a part's header line is not one"),
    ]

    @Test(arguments: lies)
    func aLyingServerIsStoppedWithTheReason(_ bytes: [UInt8], _ reason: String) {
        var reader = BatchReader(items: 3, maxPartBytes: 100)
        _ = reader.feed(bytes)
        #expect(reader.failure == BatchError(reason))
        #expect(reader.finish() == BatchError(reason))
        #expect(reader.feed(Batch.end).isEmpty, "read on after a fault")
    }

    @Test func aResponseCutShortSaysSo() {
        var reader = BatchReader(items: 3, maxPartBytes: 100)
        _ = reader.feed(Self.part(0, "abc").dropLast())
        #expect(reader.finish() == BatchError("a part cut short"))
        var empty = BatchReader(items: 3, maxPartBytes: 100)
        _ = empty.feed(Self.part(0, "abc"))
        #expect(empty.finish() == BatchError("no end"))
    }
}
