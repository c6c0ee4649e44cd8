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
        let deadline = SystemClock.milliseconds() + Int(seconds * 1000)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // Looked at after the watch is set: nothing written meanwhile is missed.
            if let text = read(path), done(text) { return text }
            let left = deadline - SystemClock.milliseconds()
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
