import PhotoGridTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// For a test or suite that starts another program or a server: tmux, photogrid itself,
    /// nginx, Apache, sshd, photogrid's server on a port, a terminal, ImageMagick or exiftool. The fast run
    /// (`PHOTOGRID_FAST=1`, README) leaves it out, and in that run `Subprocess` refuses to start
    /// anything, so a test that starts a program without the mark fails and says so.
    package static var startsPrograms: Self {
        .enabled(if: !Subprocess.isFastRun, "starts other programs: left out of the fast run (PHOTOGRID_FAST)")
    }
}
