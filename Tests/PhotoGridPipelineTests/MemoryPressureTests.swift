import Glibc
import Testing
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
import PhotoGridTestFixtures

@Suite struct MemoryPressureParsingTests {
    @Test func readsSomeAvg10FromPSIText() {
        let text = "some avg10=23.40 avg60=5.12 avg300=1.03 total=123456789\nfull avg10=11.00 avg60=2.00 avg300=0.50 total=6543210\n"
        #expect(MemoryPressureWatcher.psiSomeAvg10(text) == 23.4)
        #expect(MemoryPressureWatcher.psiSomeAvg10("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n") == 0)
    }

    @Test(arguments: ["", "garbage", "some", "some avg10=", "some avg10=abc avg60=1.00", "some avg10=nan",
                      "some avg10=-1.00", "full avg10=50.00 avg60=0.00 avg300=0.00 total=0", "\u{FFFD}some avg10"])
    func malformedPSITextHasNoReading(_ text: String) {
        #expect(MemoryPressureWatcher.psiSomeAvg10(text) == nil)
    }

    @Test func readsCgroupCounters() {
        let counters = MemoryPressureWatcher.cgroupCounters("low 0\nhigh 3\nmax 0\noom 0\noom_kill 0\n")
        #expect(counters == ["low": 0, "high": 3, "max": 0, "oom": 0, "oom_kill": 0])
        #expect(MemoryPressureWatcher.cgroupCounters("high 7\nbroken line here\nmax -2\noom x\n") == ["high": 7])
        #expect(MemoryPressureWatcher.cgroupCounters("").isEmpty)
        #expect(MemoryPressureWatcher.cgroupCounters("\u{0}\u{1}\n\n  \nhigh\n").isEmpty)
    }

    @Test func findsTheCgroupV2EventsFile() {
        let unifiedOnly = "sysfs /sys sysfs rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n"
        #expect(MemoryPressureWatcher.cgroupEventsPath(cgroupFile: "0::/user.slice/session-2.scope\n", mounts: unifiedOnly)
                == "/sys/fs/cgroup/user.slice/session-2.scope/memory.events")
        // Inside a container's cgroup namespace the process sits at the root of what it sees.
        #expect(MemoryPressureWatcher.cgroupEventsPath(cgroupFile: "0::/\n", mounts: unifiedOnly) == "/sys/fs/cgroup/memory.events")
        // Hybrid (this build machine): v1 controllers, and cgroup2 at /sys/fs/cgroup/unified.
        let hybrid = "cgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
        #expect(MemoryPressureWatcher.cgroupEventsPath(cgroupFile: "4:memory:/x\n0::/\n", mounts: hybrid)
                == "/sys/fs/cgroup/unified/memory.events")
        #expect(MemoryPressureWatcher.cgroupEventsPath(cgroupFile: "0::/gone (deleted)\n", mounts: "")
                == "/sys/fs/cgroup/gone/memory.events")
        #expect(MemoryPressureWatcher.cgroupEventsPath(cgroupFile: "4:memory:/x\n1:cpu:/\n", mounts: hybrid) == nil)
        #expect(MemoryPressureWatcher.cgroupEventsPath(cgroupFile: "", mounts: "") == nil)
    }

    @Test func callsBackOncePerCooldown() {
        var assessor = MemoryPressureWatcher.Assessor(psiThreshold: 10, cooldown: 10)
        let high = "some avg10=23.40 avg60=5.00 avg300=1.00 total=1\n"
        #expect(assessor.assess(psi: "some avg10=9.99 avg60=0 avg300=0 total=1", events: nil, now: 0) == nil)
        #expect(assessor.assess(psi: high, events: nil, now: 1) == "PSI some avg10=23.4")
        #expect(assessor.assess(psi: high, events: nil, now: 5) == nil)
        #expect(assessor.assess(psi: high, events: nil, now: 10.9) == nil)
        #expect(assessor.assess(psi: high, events: nil, now: 11) == "PSI some avg10=23.4")
        #expect(assessor.assess(psi: nil, events: nil, triggerFired: true, now: 30) == "PSI trigger (stalls over 10.0% of 2 s)")
    }

    @Test func aCgroupCounterRiseCallsBackButTheFirstReadOnlyRecords() {
        var assessor = MemoryPressureWatcher.Assessor(psiThreshold: 10, cooldown: 10)
        #expect(assessor.assess(psi: nil, events: "low 0\nhigh 3\nmax 1\noom 0\noom_kill 0\n", now: 0) == nil)
        #expect(assessor.assess(psi: nil, events: "low 9\nhigh 3\nmax 1\noom 0\noom_kill 0\n", now: 1) == nil)  // low is not ours
        #expect(assessor.assess(psi: nil, events: "", now: 2) == nil)                  // a torn read keeps the baseline
        #expect(assessor.assess(psi: nil, events: "low 9\nhigh 5\nmax 1\noom 0\noom_kill 0\n", now: 3)
                == "cgroup memory.events high 3→5")
        #expect(assessor.assess(psi: nil, events: "low 9\nhigh 5\nmax 1\noom 1\noom_kill 1\n", now: 4) == nil)  // cooling down
        #expect(assessor.assess(psi: nil, events: "low 9\nhigh 5\nmax 2\noom 1\noom_kill 1\n", now: 20)
                == "cgroup memory.events max 1→2")
    }
}

@Suite struct MemoryPressureWatcherTests {
    static let calm = "some avg10=0.50 avg60=0.20 avg300=0.00 total=1000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    static let squeezed = "some avg10=23.40 avg60=8.00 avg300=2.00 total=9000000\nfull avg10=5.00 avg60=1.00 avg300=0.00 total=10\n"

    @Test func psiAboveTheThresholdCallsBackOnceWithinTheCooldown() {
        let folder = TestImages.scratchFolder("pressure-psi")
        defer { TestImages.remove(folder) }
        let psi = folder + "/memory"
        Self.replace(psi, with: Self.calm)
        let calls = Calls()
        let watcher = MemoryPressureWatcher(sources: .init(psiPath: psi), interval: 0.05, cooldown: 60, onPressure: calls.record)
        defer { watcher.stop() }

        #expect(Self.waitForReads(watcher, 4))
        #expect(calls.all.isEmpty)
        Self.replace(psi, with: Self.squeezed)
        #expect(Self.waitUntil { calls.all.count == 1 })
        #expect(calls.all == ["PSI some avg10=23.4"])
        #expect(Self.waitForReads(watcher, 5))
        #expect(calls.all.count == 1)
    }

    @Test func aCgroupCounterRiseCallsBack() {
        let folder = TestImages.scratchFolder("pressure-cgroup")
        defer { TestImages.remove(folder) }
        let events = folder + "/memory.events"
        Self.replace(events, with: "low 0\nhigh 3\nmax 0\noom 0\noom_kill 0\n")
        let calls = Calls()
        let watcher = MemoryPressureWatcher(sources: .init(cgroupEventsPath: events), interval: 0.05, onPressure: calls.record)
        defer { watcher.stop() }

        #expect(Self.waitForReads(watcher, 3))
        #expect(calls.all.isEmpty)                     // non-zero counters on the first read are history
        Self.replace(events, with: "low 0\nhigh 5\nmax 0\noom 0\noom_kill 0\n")
        #expect(Self.waitUntil { !calls.all.isEmpty })
        #expect(calls.all == ["cgroup memory.events high 3→5"])
    }

    @Test func missingOrGarbledFilesAreSkipped() {
        let folder = TestImages.scratchFolder("pressure-missing")
        defer { TestImages.remove(folder) }
        let calls = Calls()
        let missing = MemoryPressureWatcher(sources: .init(psiPath: folder + "/no-such", cgroupEventsPath: folder + "/nor-this"),
                                            interval: 0.05, onPressure: calls.record)
        defer { missing.stop() }
        TestImages.write([0xFF, 0x00, 0xC3, 0x28, 0x0A, 0x73, 0x6F, 0x6D, 0x65], to: folder + "/garbled")
        let garbled = MemoryPressureWatcher(sources: .init(psiPath: folder + "/garbled", cgroupEventsPath: folder + "/garbled"),
                                            interval: 0.05, onPressure: calls.record)
        defer { garbled.stop() }
        // A folder opens but cannot be read: EISDIR.
        let folders = MemoryPressureWatcher(sources: .init(psiPath: folder, cgroupEventsPath: folder),
                                            interval: 0.05, onPressure: calls.record)
        defer { folders.stop() }

        #expect(Self.waitForReads(missing, 4) && Self.waitForReads(garbled, 4) && Self.waitForReads(folders, 4))
        #expect(calls.all.isEmpty)
    }

    @Test func noCallbackAfterStop() {
        let folder = TestImages.scratchFolder("pressure-stop")
        defer { TestImages.remove(folder) }
        let psi = folder + "/memory"
        Self.replace(psi, with: Self.calm)
        let calls = Calls()
        let watcher = MemoryPressureWatcher(sources: .init(psiPath: psi), interval: 0.05, cooldown: 0, onPressure: calls.record)
        #expect(Self.waitForReads(watcher, 2))
        watcher.stop()
        watcher.stop()
        let readsAtStop = watcher.readCount
        Self.replace(psi, with: Self.squeezed)
        usleep(250_000)                                 // five intervals in which a live thread would have called
        #expect(watcher.readCount == readsAtStop)
        #expect(calls.all.isEmpty)
    }

    @Test func stopDoesNotWaitOutTheInterval() {
        let watcher = MemoryPressureWatcher(sources: .init(), interval: 30, onPressure: { _ in })
        // The first read comes at once, the next one in 30 s: wait for that first one, then stop mid-sleep.
        #expect(Self.waitUntil { watcher.readCount >= 1 })
        let started = ContinuousClock.now
        watcher.stop()
        #expect(started.duration(to: .now) < .seconds(2))
    }

    @Test func releasingTheWatcherStopsIt() {
        let folder = TestImages.scratchFolder("pressure-deinit")
        defer { TestImages.remove(folder) }
        let psi = folder + "/memory"
        Self.replace(psi, with: Self.calm)
        let calls = Calls()
        var watcher: MemoryPressureWatcher? = MemoryPressureWatcher(sources: .init(psiPath: psi), interval: 0.05,
                                                                    cooldown: 0, onPressure: calls.record)
        #expect(Self.waitForReads(watcher!, 2))
        weak let released = watcher
        watcher = nil
        #expect(released == nil)
        Self.replace(psi, with: Self.squeezed)
        usleep(250_000)
        #expect(calls.all.isEmpty)
    }

    @Test func theCallbackMayStopItsOwnWatcher() {
        let folder = TestImages.scratchFolder("pressure-self-stop")
        defer { TestImages.remove(folder) }
        let psi = folder + "/memory"
        Self.replace(psi, with: Self.calm)
        let calls = Calls()
        let box = Locked<MemoryPressureWatcher?>(nil)
        let watcher = MemoryPressureWatcher(sources: .init(psiPath: psi), interval: 0.05, cooldown: 0) { reason in
            calls.record(reason)
            box.withLock { $0 }?.stop()                 // would deadlock if stop joined its own thread
        }
        box.withLock { $0 = watcher }
        Self.replace(psi, with: Self.squeezed)
        #expect(Self.waitUntil { !calls.all.isEmpty })
        usleep(250_000)
        #expect(calls.all.count == 1)                   // cooldown 0: a live thread would call every read
        box.withLock { $0 = nil }
    }

    @Test func pressureHalvesAMemoryCacheKeepingTheNewest() {
        let folder = TestImages.scratchFolder("pressure-cache")
        defer { TestImages.remove(folder) }
        let events = folder + "/memory.events"
        Self.replace(events, with: "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n")
        let cache = MemoryCache<Int, [UInt8]>(limit: 1_000_000)
        for photo in 0..<20 { cache.set([UInt8](repeating: 0, count: 10_000), for: photo, cost: 10_000) }
        let calls = Calls()
        let watcher = MemoryPressureWatcher(sources: .init(cgroupEventsPath: events), interval: 0.05) { reason in
            cache.trim(toFraction: 0.5)
            calls.record(reason)
        }
        defer { watcher.stop() }

        #expect(Self.waitForReads(watcher, 2))
        #expect(cache.totalCost == 200_000)
        Self.replace(events, with: "low 0\nhigh 0\nmax 1\noom 1\noom_kill 1\n")
        #expect(Self.waitUntil { !calls.all.isEmpty })
        #expect(calls.all == ["cgroup memory.events max 0→1, oom 0→1, oom_kill 0→1"])
        #expect(cache.totalCost == 100_000)
        #expect((0..<10).allSatisfy { !cache.contains($0) })
        #expect((10..<20).allSatisfy { cache.contains($0) })
    }

    /// The real sources of whatever machine runs the tests, PSI trigger included where the kernel
    /// grants one: it must start, read and stop cleanly, pressure or not.
    @Test func theSystemSourcesStartAndStop() {
        let sources = MemoryPressureWatcher.Sources.system()
        #expect(sources.psiPath == "/proc/pressure/memory")
        #expect(sources.usesPSITrigger)
        let watcher = MemoryPressureWatcher(sources: sources, interval: 0.05, onPressure: { _ in })
        #expect(Self.waitForReads(watcher, 3))
        watcher.stop()
    }

    // MARK: Helpers

    /// Callbacks as they arrive from the watcher's thread.
    final class Calls: Sendable {
        private let reasons = Locked<[String]>([])
        var all: [String] { reasons.withLock { $0 } }
        @Sendable func record(_ reason: String) { reasons.withLock { $0.append(reason) } }
    }

    /// Written beside and renamed over, so the watcher never reads a half-written file.
    static func replace(_ path: String, with text: String) {
        TestImages.write(Array(text.utf8), to: path + ".new")
        precondition(rename(path + ".new", path) == 0)
    }

    static func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Waits for `count` more reads than the watcher has done so far.
    static func waitForReads(_ watcher: MemoryPressureWatcher, _ count: Int) -> Bool {
        let target = watcher.readCount + count
        return waitUntil { watcher.readCount >= target }
    }
}
