import Glibc

/// This process: its id, and leaving it with a status once everything is given back.
package enum ThisProcess {
    /// getpid: for names of short-lived files that must not collide with another run's.
    package static var id: Int32 { getpid() }

    /// abort(3): SIGABRT, a core dump where enabled; for the crash tests only.
    package static func abort() -> Never { Glibc.abort() }

    /// exit(3), flushing what the C library buffers.
    package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}
