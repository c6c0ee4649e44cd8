import Glibc

/// What the last failed system call said, in words (strerror), for messages; and the few
/// reasons photogrid tells apart, so that callers need not read `errno` themselves.
package enum SystemError {
    /// strerror(errno): why the last failed call on this thread failed.
    package static func lastMessage() -> String { message(errno) }

    package static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The words for "no such file", as `lastMessage()` gives them for a file that is gone.
    package static let notFoundMessage = message(ENOENT)

    /// The last failed call found nothing at the path (ENOENT).
    package static var lastWasNotFound: Bool { errno == ENOENT }
}
