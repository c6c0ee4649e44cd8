import Foundation
import Glibc
import Testing
import GalleryFormats
import PhotoGridTestFixtures
import PhotoGridSystem
@testable import PhotoGridServe

/// The server reads HTTP/1.1 itself (`RequestReader`, `RequestHead`): what it takes, and what it
/// refuses, from clients that send requests no browser would.
@Suite struct RequestFramingTests {
    @Test func aHeadIsReadAsSent() throws {
        let head = Array(("GET /renditions/a%20b.jpg/256.jpg?x=1 HTTP/1.1\r\nHost: x\r\n"
            + "If-None-Match:  \"a\" \r\nX-Two: 1\r\nx-two: 2\r\n\r\n").utf8)
        let request = try RequestHead.parse(head).get()
        #expect(request.method == "GET" && request.target == "/renditions/a%20b.jpg/256.jpg?x=1" && request.minorVersion == 1)
        #expect(request.headers.first(name: "if-none-match") == "\"a\"")
        #expect(request.headers.values(name: "X-TWO") == ["1", "2"])
        #expect(request.isKeepAlive)
        let old = try RequestHead.parse(Array("HEAD / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n".utf8)).get()
        #expect(old.minorVersion == 0 && old.isKeepAlive)
        #expect(try !RequestHead.parse(Array("GET / HTTP/1.0\r\n\r\n".utf8)).get().isKeepAlive)
        #expect(try !RequestHead.parse(Array("GET / HTTP/1.1\r\nConnection: x, close\r\n\r\n".utf8)).get().isKeepAlive)
    }

    @Test func headsThatCouldMeanTwoThingsAreRefused() {
        let refused: [(String, Int)] = [
            ("GET /  HTTP/1.1\r\n\r\n", 400),                        // two spaces
            ("GET / HTTP/1.1 x\r\n\r\n", 400),
            ("G(T / HTTP/1.1\r\n\r\n", 400),                          // a method that is no token
            ("GET /a\u{7F}b HTTP/1.1\r\n\r\n", 400),                 // DEL in the target
            ("GET / HTTP/2.0\r\n\r\n", 505),
            ("GET / FTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),             // a space before the colon
            ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),   // obs-fold
            ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nX: a\u{0}b\r\n\r\n", 400),            // NUL in a value
        ]
        for (text, status) in refused {
            let outcome = RequestHead.parse(Array(text.utf8))
            guard case .failure(let refusal) = outcome else {
                Issue.record("taken: \(text.debugDescription)")
                continue
            }
            #expect(refusal.response.status.code == status, "\(text.debugDescription)")
        }
    }

    @Test func aStartThatCanBeNoRequestIsKnownAtOnce() {
        #expect(RequestHead.beginsWell(ArraySlice("GE".utf8)) && RequestHead.beginsWell(ArraySlice("GET /a".utf8)))
        #expect(!RequestHead.beginsWell(ArraySlice([0x16, 0x03, 0x01, 0x02, 0x00])), "a TLS greeting")
        #expect(!RequestHead.beginsWell(ArraySlice(" GET".utf8)) && !RequestHead.beginsWell(ArraySlice("GET /\u{1}".utf8)))
        #expect(!RequestHead.beginsWell(ArraySlice(String(repeating: "A", count: 65).utf8)), "a method longer than any")
    }

    @Test(.startsPrograms) func theServerRefusesBadFramingAndCloses() throws {
        try BlockingServedGallery.with { _, _, port in
            let cases: [(String, Int)] = [
                ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
                ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400),
                ("POST /batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
                ("POST /batch HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                ("POST /batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
                ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 90 * 1024) + "\r\n\r\n", 431),
                ("GET / HTTP/3\r\n\r\n", 400),
            ]
            for (text, status) in cases {
                // Followed by a good request on the same connection, which must not be answered.
                let replies = try RawHTTP.exchange(port: port, text + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                #expect(replies.map(\.status) == [status], "\(text.prefix(80).debugDescription)")
                #expect(replies.first?.headers["connection"] == "close")
            }
            // A head that never ends is cut at 80 KB, not read forever.
            let endless = try RawHTTP.connect(port: port)
            defer { close(endless) }
            #expect(RawHTTP.write(endless, "GET / HTTP/1.1\r\n"))
            var sent = 0
            while sent < 4096, RawHTTP.write(endless, "X-\(sent): " + String(repeating: "b", count: 1000) + "\r\n") {
                sent += 1
                usleep(200)
            }
            #expect(sent < 4096, "\(sent) KB of one head were taken")
            #expect(RawHTTP.closes(endless, within: 5))
        }
    }

    @Test(.startsPrograms) func bodiesAreReadWhicheverWayTheyAreFramed() throws {
        try BlockingServedGallery.with { _, _, port in
            let item = "/renditions/" + RemoteURL.percentEncode(path: GalleryFixture.night) + "/256.jpg"
            let list = Array(Batch.requestBody([item]))
            // The batch's list in three chunks, one with an extension, and a trailer field.
            let cut = [0, 5, 9, list.count]
            var chunked = ""
            for i in 0..<3 {
                let piece = String(decoding: list[cut[i]..<cut[i + 1]], as: UTF8.self)
                chunked += String(piece.utf8.count, radix: 16) + (i == 1 ? ";ext=1" : "") + "\r\n" + piece + "\r\n"
            }
            chunked += "0\r\nX-Trailer: t\r\n\r\n"
            let all = String(decoding: try RawHTTP.exchangeBytes(port: port,
                "POST /batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked), as: UTF8.self)
            #expect(all.hasPrefix("HTTP/1.1 200 OK\r\n") && all.contains("Transfer-Encoding: chunked\r\n"), "\(all.prefix(200))")
            #expect(all.contains("Content-Location: \(item)") && all.contains("END\r\n\r\n0\r\n\r\n"), "\(all.prefix(400))")
            // A GET's body is read and dropped, and the 100 the client asked for comes first.
            let text = String(decoding: try RawHTTP.exchangeBytes(port: port,
                "GET /nothing HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nab"
                + "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\n"), "\(text.prefix(200))")
            #expect(text.components(separatedBy: "HTTP/1.1 404").count == 3, "\(text)")
        }
    }

    /// A HEAD is answered by a head alone, whatever its status, so that the next response on the
    /// connection starts where the client looks for it.
    @Test(.startsPrograms) func headAnswersCarryNoBody() throws {
        try BlockingServedGallery.with { _, _, port in
            let text = String(decoding: try RawHTTP.exchangeBytes(port: port,
                "HEAD /nothing HTTP/1.1\r\nHost: x\r\n\r\nHEAD /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD /originals/" + GalleryFixture.rotated + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), as: UTF8.self)
            let heads = text.components(separatedBy: "\r\n\r\n")
            #expect(heads.count == 5, "\(text)")
            // Spelt out for the type checker: as one expression inside #expect it took 2.7 s to check.
            let statusLines: [String] = heads.prefix(4).map { (head: String) -> String in
                guard let first = head.split(separator: "\r\n").first else { return "" }
                return String(first)
            }
            let expected: [String] = ["HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"]
            #expect(statusLines == expected, "\(text)")
            #expect(heads[4] == "not found\n", "only the GET has a body: \(heads[4].debugDescription)")
        }
    }

    /// Three thousand requests in one write (140 KB): each answered, in order, by a connection
    /// whose buffer never runs empty until the last.
    @Test(.startsPrograms) func threeThousandPipelinedRequestsAreAnsweredInOrder() throws {
        try BlockingServedGallery.with { _, _, port in
            let requests = (0..<2999).map { "GET /nothing-\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
                + "GET /manifest.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let replies = try RawHTTP.exchange(port: port, requests)
            #expect(replies.count == 3000)
            #expect(replies.dropLast().allSatisfy { $0.status == 404 } && replies.last?.status == 200)
        }
    }

    /// Many clients at once, each on a connection of its own (a thread each on the server):
    /// all served, and stop ends them all, idle or not.
    @Test(.startsPrograms) func manyClientsAtOnceAndAStopWithConnectionsOpen() throws {
        try BlockingServedGallery.with { _, server, port in
            let ok = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 24) { _ in
                if (try? RawHTTP.get(port: port, "/manifest.json").status) == 200 { ok.withLock { $0 += 1 } }
            }
            #expect(ok.withLock { $0 } == 24)
            let idle = try RawHTTP.connect(port: port)
            let halfway = try RawHTTP.connect(port: port)
            defer { close(idle); close(halfway) }
            #expect(RawHTTP.write(halfway, "GET / HTTP/1.1\r\nHo"))
            #expect(!RawHTTP.closes(idle, within: 0.3))
            let started = Date()
            server.stop()
            #expect(Date().timeIntervalSince(started) < 3, "stop took \(Date().timeIntervalSince(started)) s")
            #expect(RawHTTP.closes(idle, within: 1) && RawHTTP.closes(halfway, within: 1))
            #expect(server.openConnections.count == 0)
        }
    }
}
