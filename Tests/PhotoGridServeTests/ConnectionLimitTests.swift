import Foundation
import Glibc
import Testing
import PhotoGridTestFixtures
@testable import PhotoGridServe

/// What one client may take of the server: a bounded number of connections, and no connection
/// held open by sending nothing, or one byte at a time.
@Suite(.startsPrograms) struct ConnectionLimitTests {
    @Test func aClientSendingSlowlyOrNothingIsDropped() throws {
        try BlockingServedGallery.with({ $0.limits.requestSeconds = 1; $0.limits.idleSeconds = 6 }) { _, _, port in
            // Nothing at all, and a head that never ends, one byte every 200 ms.
            let silent = try RawHTTP.connect(port: port)
            defer { close(silent) }
            let slow = try RawHTTP.connect(port: port)
            defer { close(slow) }
            let start = Date()
            for byte in "GET / HTTP/1.1\r\nHost: x\r\n" where Date().timeIntervalSince(start) < 5 {
                if !RawHTTP.write(slow, String(byte)) { break }
                usleep(200_000)
            }
            // The slow one went about 1 s after its first byte, long before the idle deadline (6 s).
            #expect(Date().timeIntervalSince(start) < 4, "the slow head was sent for \(Date().timeIntervalSince(start)) s")
            #expect(RawHTTP.closes(slow, within: 1))
            // Generous bounds: on a machine busy with the rest of the suite (kitty rendering in
            // software, ffmpeg) a timer can fire seconds late; a connection never closed still fails.
            #expect(RawHTTP.closes(silent, within: 20))
            // A connection answered and then left idle goes after the idle deadline.
            let idle = try RawHTTP.connect(port: port)
            defer { close(idle) }
            #expect(RawHTTP.write(idle, "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(!RawHTTP.closes(idle, within: 1.2))
            #expect(RawHTTP.closes(idle, within: 20))
            // A prompt client is served as ever.
            #expect(try RawHTTP.get(port: port, "/").status == 200)
        }
    }

    @Test func aClientsConnectionsAreBounded() throws {
        try BlockingServedGallery.with({ $0.limits.perClient = 2 }) { _, server, port in
            var first: Int32? = try RawHTTP.connect(port: port)
            let second = try RawHTTP.connect(port: port)
            // Each descriptor closed exactly once: closed twice, the number may by then be
            // another test's socket (the likeliest cause of the resets that four other tests
            // met at one moment in CI).
            defer { first.map { _ = close($0) }; close(second) }
            #expect(!RawHTTP.closes(second, within: 0.3))
            let third = try RawHTTP.connect(port: port)
            #expect(RawHTTP.closes(third, within: 2))
            close(third)
            // One place freed: the next is taken, and served.
            first.map { _ = close($0) }
            first = nil
            var reply: RawHTTP.Reply?
            let deadline = Date().addingTimeInterval(5)
            while reply?.status != 200 && Date() < deadline {
                reply = try? RawHTTP.get(port: port, "/")
                if reply?.status != 200 { usleep(50_000) }
            }
            #expect(reply?.status == 200)
            #expect(server.openConnections.count <= 2)
        }
    }

    /// A client that reads a large original slowly keeps it whole: the deadline for the next
    /// request starts once the response is out, not once it is queued.
    @Test func aSlowReaderGetsALargeFileWhole() throws {
        let size = 16 << 20
        try BlockingServedGallery.with({ configuration in
            configuration.limits.requestSeconds = 1
            configuration.limits.idleSeconds = 1
            var bytes = (try? GalleryFixture.smallJPEG()) ?? []
            bytes += [UInt8](repeating: 0x5A, count: size)
            _ = FileManager.default.createFile(atPath: configuration.folder + "/large.jpg", contents: Data(bytes))
        }) { fixture, _, port in
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            #expect(RawHTTP.write(fd, "GET /originals/large.jpg HTTP/1.1\r\nHost: x\r\n\r\n"))
            usleep(2_500_000)                      // reading nothing, for longer than the deadline
            let received = RawHTTP.readAll(fd)
            let expected = try fixture.bytes("large.jpg").count
            #expect(received.count > expected && received.count < expected + 1024, "\(received.count) of \(expected) and a head")
        }
    }
}
