import Glibc
import Testing
@testable import PhotoGridSystem

/// Programs run for their output (`ChildProcess.output`): what they wrote when they exit 0, and
/// each way of stopping one.
struct ChildProcessTests {
    func run(_ words: [String], timeout: Int = 5_000, limit: Int = 1 << 20, cancelled: @escaping () -> Bool = { false }) -> Result<[UInt8], ChildProcess.Failure> {
        ChildProcess.output(words.map { Array($0.utf8) }, timeout: timeout, limit: limit, cancelled: cancelled)
    }

    @Test func outputStatusAndEveryWayOfStopping() {
        #expect(run(["printf", "a\\nb"]) == .success(Array("a\nb".utf8)))
        #expect(run(["sh", "-c", "echo partial; exit 3"]) == .failure(.failed))
        #expect(run(["photogrid-no-such-program"]) == .failure(.notStarted("No such file or directory")))
        var start = SystemClock().now()
        #expect(run(["sleep", "10"], timeout: 200) == .failure(.timedOut))
        #expect(SystemClock().now() - start < 2_000)
        #expect(run(["yes"], limit: 10_000) == .failure(.tooLarge))
        start = SystemClock().now()
        #expect(run(["sleep", "10"], cancelled: { SystemClock().now() - start > 150 }) == .failure(.cancelled))
        #expect(SystemClock().now() - start < 2_000)
    }

    @Test func programsAreFoundOnThePathGiven() {
        #expect(ChildProcess.isRunnable("sh", path: "/usr/bin:/bin"))
        #expect(!ChildProcess.isRunnable("sh", path: "/nonexistent"))
        #expect(ChildProcess.isRunnable("/bin/sh", path: nil))
    }
}
