import Glibc

/// Why a system call failed: its errno, with the few reasons photogrid tells apart named, so
/// that callers need not read `errno` themselves; and in words (strerror), for messages.
package struct SystemError: Error, Equatable, CustomStringConvertible {
    package let code: Int32

    package init(code: Int32) { self.code = code }

    /// The last failed call's on this thread.
    package static var last: SystemError { SystemError(code: errno) }

    /// Nothing at the path (ENOENT).
    package var isNotFound: Bool { code == ENOENT }
    /// No space left: on the device, or of a kernel table (inotify's watches).
    package var isFull: Bool { code == ENOSPC }
    /// Something is there already (EEXIST): another name for a new file.
    package var exists: Bool { code == EEXIST }
    /// A link where none is followed (ELOOP with `noFollow`), or a loop of links.
    package var isLink: Bool { code == ELOOP }
    /// A part of the path is not a folder (ENOTDIR).
    package var isNotDirectory: Bool { code == ENOTDIR }
    /// A non-blocking descriptor had nothing (EAGAIN).
    /// ECONNREFUSED: nothing listens on that port.
    package var isRefused: Bool { code == ECONNREFUSED }
    /// ETIMEDOUT: the other end never answered the connection.
    package var isTimedOut: Bool { code == ETIMEDOUT }
    package var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
    /// link(2) on a file system without hard links (FAT, exFAT, some network ones) or past a
    /// file's most links: a rename after a look must do instead. Any other failure (a full disk,
    /// a read-only one) is the answer.
    package var meansNoHardLinks: Bool { code == EPERM || code == EOPNOTSUPP || code == ENOTSUP || code == EMLINK }

    package var description: String { SystemError.message(code) }

    /// strerror(errno): why the last failed call on this thread failed.
    package static func lastMessage() -> String { message(errno) }

    package static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The words for "no such file", as `lastMessage()` gives them for a file that is gone.
    package static let notFoundMessage = message(ENOENT)

    /// The last failed call found nothing at the path (ENOENT).
    package static var lastWasNotFound: Bool { errno == ENOENT }

    /// The last failed call was interrupted by a signal (EINTR).
    package static var lastWasInterrupted: Bool { errno == EINTR }
}
