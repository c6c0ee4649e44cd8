import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// `o`: the focused or marked photos handed to another program: `$PHOTOGRID_OPENER` with the
/// paths (a remote photo's address) as its arguments (words split as a shell splits them, so
/// "gimp -n" works), else `xdg-open` once a photo. The program runs in a session of its own, its
/// input and output on /dev/null, and photogrid does not wait for it: the terminal stays
/// photogrid's, and a Ctrl-C there does not reach the program. A program that fails or hangs costs photogrid nothing.
enum Opener {
    /// Starts the opener; nil when started, else why not, for the status line.
    static func open(_ photos: [PhotoSource], environment: [String: String]) -> String? {
        guard !photos.isEmpty else { return "nothing to open" }
        let script: String
        if let opener = environment["PHOTOGRID_OPENER"], !opener.allSatisfy({ $0 == " " }) {
            guard let program = opener.split(separator: " ").first, ChildProcess.isRunnable(String(program), path: environment["PATH"]) else {
                return "PHOTOGRID_OPENER: \(opener.split(separator: " ").first.map(String.init) ?? opener) not found"
            }
            script = "( $PHOTOGRID_OPENER \"$@\" ) </dev/null >/dev/null 2>&1 &"
        } else {
            guard ChildProcess.isRunnable("xdg-open", path: environment["PATH"]) else { return "no xdg-open: set PHOTOGRID_OPENER to a program" }
            script = "( for f; do xdg-open \"$f\"; done ) </dev/null >/dev/null 2>&1 &"
        }
        // The shell puts the opener in the background and exits at once.
        return ShellScript.run(script, arguments: photos.map(\.bytes), terminal: .detached) == nil ? "cannot run /bin/sh" : nil
    }
}
