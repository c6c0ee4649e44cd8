import Testing
@testable import PhotoGridSystem

/// The keyed-job table the pipeline schedules from and `SharedJobs` locks: one job a key, and a
/// running job kept through every change but its own end.
struct KeyedJobsTests {
    struct Job: Equatable { var priority: Int; var wanted = true }

    @Test func aKeyIsOneJobWhoeverAsks() {
        var jobs = KeyedJobs<String, Job>()
        let first = jobs.join("a", start: { Job(priority: 1) }, joining: { $0.priority = max($0.priority, 5) })
        let second = jobs.join("a", start: { Job(priority: 9) }, joining: { $0.priority = max($0.priority, 5) })
        #expect(first && !second)
        #expect(jobs["a"] == Job(priority: 5))
        let finished = jobs.finish("a")
        #expect(finished == Job(priority: 5))
        #expect(jobs.isEmpty)
        let again = jobs.join("a", start: { Job(priority: 2) })
        #expect(again && jobs["a"] == Job(priority: 2))
    }

    @Test func aRunningJobOutlivesAReplanButNotItsEnd() {
        var jobs = KeyedJobs<String, Job>()
        for key in ["a", "b", "c"] { jobs.join(key, start: { Job(priority: 1) }) }
        jobs.take("a")
        jobs.take("b")
        #expect(Set(jobs.waiting.map(\.key)) == ["c"])

        // Wanted now: "b" (running, new priority) and "d"; "a" runs on, marked; "c" goes.
        jobs.replace(with: ["b": Job(priority: 7), "d": Job(priority: 3)], leftRunning: { $0.wanted = false })
        #expect(Set(jobs.keys) == ["a", "b", "d"])
        #expect(jobs["a"] == Job(priority: 1, wanted: false) && jobs.isRunning("a"))
        #expect(jobs["b"] == Job(priority: 7) && jobs.isRunning("b"))
        #expect(jobs["d"] == Job(priority: 3) && !jobs.isRunning("d"))

        jobs.dropWaiting { _, _ in true }
        #expect(Set(jobs.keys) == ["a", "b"])

        // A runner that could not go on puts its job back, to be dropped or picked again.
        jobs.putBack("b")
        #expect(jobs.waiting.map(\.key) == ["b"])
        jobs.dropWaiting { key, _ in key == "b" }
        jobs.finish("a")
        #expect(jobs.isEmpty)
    }
}
