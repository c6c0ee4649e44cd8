import PhotoGridTestSupport
import Testing

/// The fast run (`PHOTOGRID_FAST=1`, README) is the loop a contributor runs after each change:
/// under a minute after a build on a 2-core machine. CI runs everything. A mark leaves a test out
/// of it, and a sweep runs fewer cases in it; docs/decisions.md ("A fast run beside the whole
/// suite") says why.
extension Trait where Self == ConditionTrait {
    /// For a test or suite that starts another program or a server: tmux, photogrid itself,
    /// nginx, Apache, sshd, photogrid's server on a port, a terminal, ImageMagick or exiftool.
    /// In the fast run `Subprocess` refuses to start anything, so a test that starts a program
    /// without the mark fails and says so.
    package static var startsPrograms: Self {
        .enabled(if: !Subprocess.isFastRun, "starts other programs: left out of the fast run (PHOTOGRID_FAST)")
    }
}

/// A sweep's size in the fast run: the same check over fewer cases (a shorter random walk, the
/// extreme screen sizes), so that the fast run still covers it; CI runs every case.
package enum FastRun {
    package static var isOn: Bool { Subprocess.isFastRun }

    /// `all`, or `fast` in the fast run.
    package static func cases<T>(_ all: [T], fast: [T]) -> [T] { isOn ? fast : all }
}
