import Glibc

/// Events for the event loop from other threads (workers, signal handlers), with a pipe the
/// loop polls beside the keyboard so that it sleeps until something happens.
package final class Mailbox: Sendable {
    package enum Event: Equatable, Sendable {
        case tileReady
        case resize
        case resume
        case quit(signal: Int32)
    }

    private let events = Locked<[Event]>([])
    /// The loop polls this.
    package let readFD: Int32
    private let writeFD: Int32

    package init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    package func post(_ event: Event) {
        // Many finished tiles before the loop wakes are one redraw.
        let wasEmpty = events.withLock { list in
            let empty = list.isEmpty
            if event != .tileReady || !list.contains(.tileReady) { list.append(event) }
            return empty
        }
        if wasEmpty { var byte: UInt8 = 1; _ = write(writeFD, &byte, 1) }
    }

    /// Everything posted so far, oldest first.
    package func drain() -> [Event] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readFD, $0.baseAddress!, $0.count) }) > 0 {}
        return events.withLock { list in defer { list = [] }; return list }
    }

    /// Sleeps until an event is posted or `milliseconds` pass (-1: no time limit), or, with
    /// `input`, until that descriptor has something to read (the keyboard, for the loop).
    package func wait(milliseconds: Int32, orInputOn input: Int32? = nil) {
        var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        if let input { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
    }
}
