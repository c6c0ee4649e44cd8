import Glibc
import PhotoGridCore

/// Waits for a file another program writes (an opener, a player) through inotify: woken when a
/// file in its folder is written, closed or moved in, instead of looking every so often.
package enum FileWatch {
    /// The file's contents once `done` says they are what is awaited, at most `seconds`; nil if
    /// they never were.
    package static func wait(for path: String, seconds: Double = 10, until done: (String) -> Bool = { !$0.isEmpty }) -> String? {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { return nil }
        defer { close(inotify) }
        _ = inotify_add_watch(inotify, folder.isEmpty ? "." : folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY | IN_CREATE))
        let deadline = SystemClock().now() + Int(seconds * 1000)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // Looked at after the watch is set: nothing written meanwhile is missed.
            if let text = read(path), done(text) { return text }
            let left = deadline - SystemClock().now()
            guard left > 0 else { return nil }
            var poller = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(left)) > 0 { _ = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) } }
        }
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The writes to one file (or its creation), watched from when this is made: a write that comes
/// between two waits is kept by the kernel and ends the next wait at once, so nothing written
/// while the caller looked elsewhere is missed.
package final class WriteWatch {
    private let inotify: Int32
    private let name: String

    package init(_ path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        name = String(path[(slash.map { path.index(after: $0) } ?? path.startIndex)...])
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        if inotify >= 0 { _ = inotify_add_watch(inotify, folder.isEmpty ? "/" : folder, UInt32(IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE)) }
    }

    deinit { if inotify >= 0 { close(inotify) } }

    /// Waits for a write to the file, at most `seconds`; whether one came. A burst of writes
    /// (a frame is many) ends the wait once it pauses for `settle` seconds, or after `atMost`
    /// seconds of it, so that whoever looks after each wait looks once a burst, not once a write.
    @discardableResult
    package func wait(seconds: Double, settle: Double = 0.02, atMost: Double = 0.1) -> Bool {
        guard inotify >= 0 else { return false }
        let deadline = SystemClock().now() + Int(seconds * 1000)
        guard written(before: deadline) else { return false }
        let burstEnd = min(deadline, SystemClock().now() + Int(atMost * 1000))
        while SystemClock().now() < burstEnd,
              written(before: min(burstEnd, SystemClock().now() + Int(settle * 1000))) {}
        return true
    }

    /// Waits until no write has come for `quiet` seconds, at most `limit` seconds in all;
    /// whether it was quiet that long. Woken by each write, so a writer that goes on writing
    /// keeps it waiting and one that has stopped is known to have stopped after `quiet`.
    package func waitForQuiet(_ quiet: Double, limit: Double) -> Bool {
        guard inotify >= 0 else { return false }
        let deadline = SystemClock().now() + Int(limit * 1000), quietMilliseconds = Int(quiet * 1000)
        while true {
            let now = SystemClock().now()
            guard deadline - now >= quietMilliseconds else { return false }
            if !written(before: now + quietMilliseconds) { return true }
        }
    }

    /// Whether a write to the file comes before `deadline` (milliseconds of `SystemClock`).
    private func written(before deadline: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - SystemClock().now()
            guard left > 0 else { return false }
            var poller = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            // Each event (struct inotify_event: wd, mask, cookie, len, then the name) names the
            // file in the folder it is about.
            var at = 0, written = false
            while at + 16 <= count {
                let length = Int(buffer[at + 12]) | Int(buffer[at + 13]) << 8 | Int(buffer[at + 14]) << 16 | Int(buffer[at + 15]) << 24
                let bytes = buffer[(at + 16)..<min(count, at + 16 + length)].prefix { $0 != 0 }
                if String(decoding: bytes, as: UTF8.self) == name { written = true }
                at += 16 + length
            }
            if written { return true }
        }
    }
}
