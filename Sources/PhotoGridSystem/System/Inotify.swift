import Glibc

/// Linux's inotify, as far as watching folders for files coming and going needs it: one
/// descriptor, a watch a folder, and the events read from it without waiting. The caller polls
/// `descriptor` (`Poll`) and owns the only thread that reads it.
package final class Inotify: @unchecked Sendable {
    /// What happened, to a name in a watched folder (`name` empty: to the folder itself).
    package struct Event: Equatable, Sendable {
        package let watch: Int32
        package let mask: UInt32
        package let name: [UInt8]

        package var isFolder: Bool { mask & UInt32(IN_ISDIR) != 0 }
        package func has(_ bits: UInt32) -> Bool { mask & bits != 0 }
    }

    /// The events a folder is watched for: names coming (created, moved in, a file written and
    /// closed) and going (deleted, moved out), and the folder itself going.
    package static let folderEvents = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE
                                              | IN_DELETE_SELF | IN_MOVE_SELF)
    package static let created = UInt32(IN_CREATE), written = UInt32(IN_CLOSE_WRITE)
    package static let movedIn = UInt32(IN_MOVED_TO), movedOut = UInt32(IN_MOVED_FROM), deleted = UInt32(IN_DELETE)
    package static let selfGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
    /// The kernel's queue filled and events were dropped: whatever was watched may have changed.
    package static let overflow = UInt32(IN_Q_OVERFLOW)
    /// The watch is gone (its folder deleted, or `unwatch`).
    package static let ignored = UInt32(IN_IGNORED)

    package let descriptor: FileDescriptor

    package init() throws(SystemError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .last }
        descriptor = FileDescriptor(raw: fd)
    }

    deinit { try? descriptor.close() }

    /// Watches a folder (a link to one followed); its watch number. ENOSPC: the user's limit of
    /// watches (`fs.inotify.max_user_watches`) is reached.
    package func watch(_ folder: RawPath) throws(SystemError) -> Int32 {
        let watch = folder.withCString { inotify_add_watch(descriptor.raw, $0, Inotify.folderEvents | UInt32(IN_ONLYDIR)) }
        guard watch >= 0 else { throw .last }
        return watch
    }

    /// The events waiting, none when there are none (the descriptor never blocks).
    package func read() -> [Event] {
        var events: [Event] = []
        // Room for many events at once; one event is at most a header and NAME_MAX + 1 bytes.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor.raw, $0.baseAddress, $0.count) }
            guard count > 0 else { return events }
            events += Inotify.parse(buffer[..<count])
        }
    }

    /// The events in bytes read from the descriptor: each a header (watch, mask, cookie, length)
    /// and a name padded with NULs to `length`. A record cut short (never from a kernel) ends it.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
        var events: [Event] = []
        var at = bytes.startIndex
        func word(_ offset: Int) -> UInt32 {
            bytes[(at + offset)..<(at + offset + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        while bytes.endIndex - at >= 16 {
            let length = Int(word(12))
            guard bytes.endIndex - at - 16 >= length else { break }
            let name = bytes[(at + 16)..<(at + 16 + length)].prefix { $0 != 0 }
            events.append(Event(watch: Int32(bitPattern: word(0)), mask: word(4), name: Array(name)))
            at += 16 + length
        }
        return events
    }
}
