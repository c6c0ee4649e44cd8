import Glibc

/// This process: its id, its locale, and leaving it with a status once everything is given back.
package enum ThisProcess {
    /// getpid: for names of short-lived files that must not collide with another run's.
    package static var id: Int32 { getpid() }

    /// getuid: the user a per-user trash directory (`.Trash-1000`) is named for.
    package static var userID: UInt32 { getuid() }

    /// abort(3): SIGABRT, a core dump where enabled; for the crash tests only.
    package static func abort() -> Never { Glibc.abort() }

    /// exit(3), flushing what the C library buffers.
    package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// _exit(2), at once: from a signal's handler while other threads run, whose exit handlers
    /// and buffers must not be touched.
    package static func exitNow(_ status: Int32) -> Never { Glibc._exit(status) }

    /// The user's locale, for ncurses to draw UTF-8 by; C.UTF-8 when theirs is not UTF-8 (a bare
    /// "C" or POSIX locale would make every block and accent a `?`).
    package static func useUTF8Locale() {
        if setlocale(LC_ALL, "") == nil || !localeIsUTF8() { _ = setlocale(LC_ALL, "C.UTF-8") }
    }

    private static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}

/// The bytes of a C string up to its NUL, whatever they are (a terminfo capability).
package func cStringBytes(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: strlen(pointer)))
}
