import Glibc
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
                cgroupFile: PressureFiles.read("/proc/self/cgroup") ?? "",
                mounts: PressureFiles.read("/proc/self/mounts") ?? "")
            return Sources(psiPath: "/proc/pressure/memory",
                           cgroupEventsPath: events.flatMap { access($0, R_OK) == 0 ? $0 : nil },
                           usesPSITrigger: true)
        }
    }

    private let poller: PressurePoller
    private let thread: Locked<pthread_t?>

    /// `interval` and `cooldown` in seconds; `psiThreshold` is the percentage of the last ten
    /// seconds in which some task stalled on memory ("some avg10").
    package init(sources: Sources = .system(), interval: Double = 1, cooldown: Double = 10,
                psiThreshold: Double = 10, onPressure: @escaping @Sendable (String) -> Void) {
        poller = PressurePoller(sources: sources, interval: interval,
                                assessor: Assessor(psiThreshold: psiThreshold, cooldown: cooldown),
                                onPressure: onPressure)
        var handle = pthread_t()
        let context = Unmanaged.passRetained(poller).toOpaque()
        if pthread_create(&handle, nil, { context in
            Unmanaged<PressurePoller>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0 {
            thread = Locked(handle)
        } else {
            // No thread, no callbacks: a photo browser should still run without this.
            Unmanaged<PressurePoller>.fromOpaque(context).release()
            thread = Locked(nil)
        }
    }

    deinit { stop() }

    /// Ends the thread and waits for it, so that no callback runs once this returns, unless it is
    /// called from the callback itself, which cannot wait for its own thread.
    package func stop() {
        guard let handle = thread.withLock({ t -> pthread_t? in defer { t = nil }; return t }) else { return }
        poller.wake()
        if pthread_equal(handle, pthread_self()) != 0 { pthread_detach(handle) } else { pthread_join(handle, nil) }
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
    let onPressure: @Sendable (String) -> Void
    let stopping = Atomic<Bool>(false)
    let reads = Atomic<Int>(0)
    /// Written to by `wake`, so that a stop does not wait out the rest of an interval.
    let wakeRead: Int32
    let wakeWrite: Int32

    init(sources: MemoryPressureWatcher.Sources, interval: Double, assessor: MemoryPressureWatcher.Assessor,
         onPressure: @escaping @Sendable (String) -> Void) {
        self.sources = sources
        intervalMilliseconds = Int32(max(1, min(Double(Int32.max), (interval * 1000).rounded())))
        initialAssessor = assessor
        self.onPressure = onPressure
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    func wake() {
        stopping.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        if wakeWrite >= 0 { _ = write(wakeWrite, &byte, 1) }
    }

    func run() {
        var assessor = initialAssessor
        var trigger = sources.usesPSITrigger ? sources.psiPath.flatMap(openTrigger) : nil
        defer { if let trigger { close(trigger) } }
        let start = ContinuousClock.now
        var triggerFired = false
        while !stopping.load(ordering: .acquiring) {
            let elapsed = start.duration(to: .now).components
            let now = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
            let reason = assessor.assess(psi: sources.psiPath.flatMap(PressureFiles.read),
                                         events: sources.cgroupEventsPath.flatMap(PressureFiles.read),
                                         triggerFired: triggerFired, now: now)
            reads.add(1, ordering: .releasing)
            if let reason, !stopping.load(ordering: .acquiring) { onPressure(reason) }

            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if let trigger { fds.append(pollfd(fd: trigger, events: Int16(POLLPRI), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), intervalMilliseconds) >= 0 else {
                // EINTR just reads early; anything else must not turn the loop into a spin.
                if errno != EINTR { usleep(useconds_t(intervalMilliseconds) * 1000) }
                triggerFired = false
                continue
            }
            triggerFired = fds.count > 1 && fds[1].revents & Int16(POLLPRI) != 0
            if fds.count > 1, fds[1].revents & Int16(POLLERR | POLLNVAL) != 0 {
                // The kernel withdrew the trigger (its cgroup went away): keep polling the text.
                close(fds[1].fd)
                trigger = nil
            }
        }
    }

    /// A PSI trigger on the memory file: the kernel raises POLLPRI when tasks stalled for
    /// `threshold` percent of a 2 s window. Two seconds because processes without CAP_SYS_RESOURCE
    /// may only ask for windows in whole multiples of 2 s (EINVAL otherwise, as on this project's
    /// build machine even as root). Nil when the kernel refuses (no PSI, EPERM, EINVAL, ...).
    private func openTrigger(_ path: String) -> Int32? {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let window = 2_000_000
        let stall = max(1, min(window, Int(initialAssessor.psiThreshold / 100 * Double(window))))
        // The kernel replaces the last byte written with a NUL, so the NUL must be sent too.
        let written = "some \(stall) \(window)".withCString { write(fd, $0, strlen($0) + 1) }
        guard written > 0 else { close(fd); return nil }
        return fd
    }
}

/// Small whole-file reads of /proc and /sys files, which report a size of zero, so the file is
/// read until the end rather than by its size.
private enum PressureFiles {
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        // These files are a few hundred bytes; the cap only guards against pointing at a huge file.
        while bytes.count < 65_536 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
