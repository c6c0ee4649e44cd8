import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem
import Synchronization

/// Watches the kernel's memory-pressure signals (Linux PSI and the cgroup's `memory.events`) on a
/// background thread and calls `onPressure` at most once per cooldown, so that the image cache can
/// give up its oldest half, as iOS apps do on a memory warning.
package final class MemoryPressureWatcher: Sendable {
    /// Where the signals are read. A `nil` path, or a file that is missing or unreadable, is skipped.
    package struct Sources: Sendable {
        package var psiPath: String?
        package var cgroupEventsPath: String?
        /// Whether to ask the kernel for a PSI trigger on `psiPath`, which wakes the thread as soon
        /// as stalls pass the threshold instead of waiting for `avg10` to catch up. Only for the real
        /// /proc file: on a plain file the trigger's write would land in the file.
        package var usesPSITrigger: Bool

        package init(psiPath: String? = nil, cgroupEventsPath: String? = nil, usesPSITrigger: Bool = false) {
            self.psiPath = psiPath
            self.cgroupEventsPath = cgroupEventsPath
            self.usesPSITrigger = usesPSITrigger
        }

        /// This machine's: /proc/pressure/memory and this process's cgroup v2 `memory.events`.
        package static func system() -> Sources {
            let events = MemoryPressureWatcher.cgroupEventsPath(
                cgroupFile: FileDescriptor.kernelFile("/proc/self/cgroup") ?? "",
                mounts: FileDescriptor.kernelFile("/proc/self/mounts") ?? "")
            return Sources(psiPath: "/proc/pressure/memory",
                           cgroupEventsPath: events.flatMap { RawPath($0).isReadable ? $0 : nil },
                           usesPSITrigger: true)
        }
    }

    private let poller: PressurePoller
    /// Nil when no thread could be started: no callbacks then, and a photo browser still runs.
    private let thread: JoinableThread?

    /// `interval` and `cooldown` in seconds; `psiThreshold` is the percentage of the last ten
    /// seconds in which some task stalled on memory ("some avg10").
    package init(sources: Sources = .system(), interval: Double = 1, cooldown: Double = 10,
                psiThreshold: Double = 10, clock: any Clock = SystemClock(), onPressure: @escaping @Sendable (String) -> Void) {
        poller = PressurePoller(sources: sources, interval: interval, clock: clock,
                                assessor: Assessor(psiThreshold: psiThreshold, cooldown: cooldown),
                                onPressure: onPressure)
        thread = JoinableThread { [poller] in poller.run() }
    }

    deinit { stop() }

    /// Ends the thread and waits for it, so that no callback runs once this returns, unless it is
    /// called from the callback itself, which cannot wait for its own thread.
    package func stop() {
        poller.wake()
        thread?.join()
    }

    /// How many times the thread has read the sources, so tests can wait for reads, not for time.
    var readCount: Int { poller.reads.load(ordering: .acquiring) }

    // MARK: Parsing

    /// The "some avg10" percentage from /proc/pressure/memory
    /// ("some avg10=1.23 avg60=0.50 avg300=0.10 total=12345"), or nil if there is none.
    static func psiSomeAvg10(_ text: String) -> Double? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.first == "some" else { continue }
            for field in fields.dropFirst() where field.hasPrefix("avg10=") {
                guard let value = Double(field.dropFirst("avg10=".count)), value.isFinite, value >= 0 else { return nil }
                return value
            }
        }
        return nil
    }

    /// The "name value" lines of a cgroup v2 `memory.events` file; malformed lines are left out.
    static func cgroupCounters(_ text: String) -> [String: Int] {
        var counters: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let value = Int(fields[1]), value >= 0 else { continue }
            counters[String(fields[0])] = value
        }
        return counters
    }

    /// This process's `memory.events`, from its /proc/self/cgroup line "0::/some/path" and the
    /// cgroup2 mount in /proc/self/mounts (usually /sys/fs/cgroup, /sys/fs/cgroup/unified on
    /// hybrid systems). Nil when the process is in no cgroup v2 hierarchy.
    static func cgroupEventsPath(cgroupFile: String, mounts: String) -> String? {
        guard let line = cgroupFile.split(separator: "\n").first(where: { $0.hasPrefix("0::/") }) else { return nil }
        var mountPoint = "/sys/fs/cgroup"
        for mount in mounts.split(separator: "\n") {
            let fields = mount.split(separator: " ")
            if fields.count >= 3, fields[2] == "cgroup2" { mountPoint = String(fields[1]); break }
        }
        var path = String(line.dropFirst("0::".count))
        if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
        return (path == "/" ? mountPoint : mountPoint + path) + "/memory.events"
    }

    // MARK: Deciding

    /// Turns successive readings into callbacks: a reason when PSI is over the threshold or a cgroup
    /// counter rose, and at most one callback per cooldown. Pure, so its timing is tested with
    /// made-up clocks.
    struct Assessor {
        /// The counters the kernel bumps when the cgroup is squeezed; `low` only says reclaim
        /// dipped into protected memory, which is not our problem.
        static let pressureCounters = ["high", "max", "oom", "oom_kill"]

        let psiThreshold: Double
        let cooldown: Double
        private var counters: [String: Int] = [:]
        private var lastCallback: Double?

        init(psiThreshold: Double, cooldown: Double) {
            self.psiThreshold = psiThreshold
            self.cooldown = cooldown
        }

        /// The reason to call back now, if any. Nil texts are sources that could not be read.
        mutating func assess(psi: String?, events: String?, triggerFired: Bool = false, now: Double) -> String? {
            var reasons: [String] = []
            if let psi, let avg10 = MemoryPressureWatcher.psiSomeAvg10(psi), avg10 >= psiThreshold {
                reasons.append("PSI some avg10=\(avg10)")
            } else if triggerFired {
                reasons.append("PSI trigger (stalls over \(psiThreshold)% of 2 s)")
            }
            if let events {
                // Keys missing from a read keep their old value, so that a half-written or briefly
                // empty file never resets the baseline and then counts as a rise.
                let read = MemoryPressureWatcher.cgroupCounters(events)
                let rises = Assessor.pressureCounters.compactMap { name -> String? in
                    guard let old = counters[name], let new = read[name], new > old else { return nil }
                    return "\(name) \(old)→\(new)"
                }
                if !rises.isEmpty { reasons.append("cgroup memory.events " + rises.joined(separator: ", ")) }
                counters.merge(read) { _, new in new }
            }
            guard !reasons.isEmpty else { return nil }
            if let last = lastCallback, now - last < cooldown { return nil }
            lastCallback = now
            return reasons.joined(separator: ", ")
        }
    }
}

/// The loop on the watcher's thread. Kept apart from the watcher so that the thread does not keep
/// the watcher alive, and the watcher's deinit can stop it.
private final class PressurePoller: Sendable {
    let sources: MemoryPressureWatcher.Sources
    let intervalMilliseconds: Int32
    let initialAssessor: MemoryPressureWatcher.Assessor
    /// The cooldown between two pressures is counted on it.
    let clock: any Clock
    let onPressure: @Sendable (String) -> Void
    let stopping = Atomic<Bool>(false)
    let reads = Atomic<Int>(0)
    /// Written to by `wake`, so that a stop does not wait out the rest of an interval.
    let wakeUp: (read: FileDescriptor, write: FileDescriptor)?

    init(sources: MemoryPressureWatcher.Sources, interval: Double, clock: any Clock, assessor: MemoryPressureWatcher.Assessor,
         onPressure: @escaping @Sendable (String) -> Void) {
        self.sources = sources
        self.clock = clock
        intervalMilliseconds = Int32(max(1, min(Double(Int32.max), (interval * 1000).rounded())))
        initialAssessor = assessor
        self.onPressure = onPressure
        wakeUp = try? FileDescriptor.pipe(nonBlocking: false)
    }

    deinit {
        try? wakeUp?.read.close()
        try? wakeUp?.write.close()
    }

    func wake() {
        stopping.store(true, ordering: .releasing)
        wakeUp?.write.poke()
    }

    package func run() {
        var assessor = initialAssessor
        var trigger = sources.usesPSITrigger ? sources.psiPath.flatMap(openTrigger) : nil
        defer { try? trigger?.close() }
        let start = clock.seconds()
        var triggerFired = false
        while !stopping.load(ordering: .acquiring) {
            let now = clock.seconds() - start
            let reason = assessor.assess(psi: sources.psiPath.flatMap(FileDescriptor.kernelFile),
                                         events: sources.cgroupEventsPath.flatMap(FileDescriptor.kernelFile),
                                         triggerFired: triggerFired, now: now)
            reads.add(1, ordering: .releasing)
            if let reason, !stopping.load(ordering: .acquiring) { onPressure(reason) }

            var watched: [(FileDescriptor, Poll.Events)] = []
            if let wakeUp { watched.append((wakeUp.read, .readable)) }
            if let trigger { watched.append((trigger, .urgent)) }
            guard let seen = Poll.wait(watched, milliseconds: intervalMilliseconds) else {
                // An interruption just reads early; anything else must not turn the loop into a spin.
                if !SystemError.lastWasInterrupted { SystemClock.sleep(milliseconds: Int(intervalMilliseconds)) }
                triggerFired = false
                continue
            }
            let triggerSeen = trigger == nil ? [] : seen[seen.count - 1]
            triggerFired = triggerSeen.contains(.urgent)
            if let withdrawn = trigger, !triggerSeen.intersection(.failed).isEmpty {
                // The kernel withdrew the trigger (its cgroup went away): keep polling the text.
                try? withdrawn.close()
                trigger = nil
            }
        }
    }

    /// A PSI trigger on the memory file: the kernel raises POLLPRI when tasks stalled for
    /// `threshold` percent of a 2 s window. Two seconds because processes without CAP_SYS_RESOURCE
    /// may only ask for windows in whole multiples of 2 s (EINVAL otherwise, as on this project's
    /// build machine even as root). Nil when the kernel refuses (no PSI, EPERM, EINVAL, ...).
    private func openTrigger(_ path: String) -> FileDescriptor? {
        guard let file = try? FileDescriptor.open(RawPath(path), .readWrite, options: .nonBlocking) else { return nil }
        let window = 2_000_000
        let stall = max(1, min(window, Int(initialAssessor.psiThreshold / 100 * Double(window))))
        // The kernel replaces the last byte written with a NUL, so the NUL must be sent too.
        guard (try? file.writeAll(Array("some \(stall) \(window)".utf8) + [0])) != nil else { try? file.close(); return nil }
        return file
    }
}
