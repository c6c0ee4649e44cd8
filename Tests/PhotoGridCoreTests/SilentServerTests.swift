import Foundation
import Glibc
import Testing
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A server that takes the connection and never answers (a hung NAS, a port that is not HTTP):
/// the wait is said on the terminal within a second, `q` stops it at any time, and without a
/// key photogrid gives up with a message that says what happened, within the stall timeout.
@Suite(.startsPrograms, .serialized) struct SilentServerTests {
    /// A socket that listens on 127.0.0.1 and is never read: the kernel completes every
    /// connection, nothing ever answers.
    final class Silent {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    @Test func theWaitIsNamedAtOnceAndQStopsIt() throws {
        let server = try Silent()
        let started = SystemClock().seconds()
        let tmux = try Tmux(columns: 100, rows: 20, command: "\(RemotePaths.binary) --mode halfblock --url http://127.0.0.1:\(server.port)/")
        var (ok, screen) = try tmux.waitFor(seconds: 5) { $0.contains("connecting to 127.0.0.1:\(server.port)") || $0.contains("waiting for") }
        let named = SystemClock().seconds() - started
        #expect(ok, "\(screen)")
        // From the test's start, tmux's own start and the terminal's probe included.
        #expect(named < 1.5, "the wait was named after \(named) s")
        (ok, screen) = try tmux.waitFor(seconds: 5) { $0.contains("waiting for 127.0.0.1:\(server.port), 2 s") }
        #expect(ok, "the wait does not count: \(screen)")
        let pressed = SystemClock().seconds()
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor(seconds: 5) { $0.contains("[exit 0]") }
        #expect(ok, "q did not stop the wait: \(screen)")
        #expect(SystemClock().seconds() - pressed < 1, "q took \(SystemClock().seconds() - pressed) s")
        // The line that said the wait is gone.
        #expect(!screen.contains("waiting for"), "\(screen)")
    }

    @Test func withoutAKeyItGivesUpWithinTheTimeoutAndSaysWhy() throws {
        let server = try Silent()
        let cache = RemotePaths.scratch("silent")
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let started = SystemClock().seconds()
        let result = try RemotePaths.print(["--mode", "halfblock", "--url", "http://127.0.0.1:\(server.port)/"], cacheHome: cache)
        let elapsed = SystemClock().seconds() - started
        let stderr = String(decoding: result.error, as: UTF8.self)
        #expect(result.status == 1, "\(result.status): \(stderr)")
        #expect(stderr.contains("waiting for 127.0.0.1:\(server.port)"), "\(stderr)")
        #expect(stderr.contains("127.0.0.1:\(server.port): connected, but no answer came"), "\(stderr)")
        // The stall timeout (20 s), asked once: a server that never answered is not asked again.
        #expect(elapsed >= 19 && elapsed < 25, "gave up after \(elapsed) s")
    }
}
