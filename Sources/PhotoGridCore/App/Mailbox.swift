import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Events for the event loop from other threads (workers, signal handlers), with a pipe the
/// loop polls beside the keyboard so that it sleeps until something happens.
package final class Mailbox: Sendable {
    package enum Event: Equatable, Sendable {
        /// A tile or a photo's details are ready: the next frame shows them.
        case tileReady
        /// A reader of the gallery has news (`GalleryNews`): the controller takes it.
        case news(GalleryNews)
        case resize
        case resume
        case quit(signal: Int32)
    }

    private let events = Locked<[Event]>([])
    /// A pipe the loop polls; nil if none could be made (then the loop wakes by its timeouts).
    private let wakeUp: (read: FileDescriptor, write: FileDescriptor)?

    package init() { wakeUp = try? FileDescriptor.pipe(nonBlocking: true) }

    deinit {
        try? wakeUp?.read.close()
        try? wakeUp?.write.close()
    }

    package func post(_ event: Event) {
        // Many finished tiles (or news of one kind) before the loop wakes are one event.
        let wasEmpty = events.withLock { list in
            let empty = list.isEmpty
            if !list.contains(event) || event == .resize || event == .resume { list.append(event) }
            return empty
        }
        if wasEmpty { wakeUp?.write.poke() }
    }

    /// Everything posted so far, oldest first.
    package func drain() -> [Event] {
        wakeUp?.read.drain()
        return events.withLock { list in defer { list = [] }; return list }
    }

    /// Sleeps until an event is posted or `milliseconds` pass (-1: no time limit), or, with
    /// `input`, until that descriptor has something to read (the keyboard, for the loop).
    package func wait(milliseconds: Int32, orInputOn input: Int32? = nil) {
        var watched: [(FileDescriptor, Poll.Events)] = []
        if let wakeUp { watched.append((wakeUp.read, .readable)) }
        if let input { watched.append((FileDescriptor(raw: input), .readable)) }
        _ = Poll.wait(watched, milliseconds: milliseconds)
    }
}
