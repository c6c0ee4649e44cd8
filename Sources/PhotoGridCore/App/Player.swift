import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Enter on a video: `$PHOTOGRID_PLAYER` (words split as a shell splits them), else `mpv`, else
/// `xdg-open`, run in the foreground with the terminal handed over (`GridApp.play`), photogrid
/// waiting for it. Ctrl-C then stops the player, not photogrid: photogrid ignores SIGINT and
/// SIGQUIT meanwhile, and the player starts with them at their defaults.
enum Player {
    /// Plays `video` (a file, or a remote address mpv can stream) and returns when the player
    /// exits: nil, or why it could not be started.
    static func play(_ video: PhotoSource, environment: [String: String]) -> String? {
        let command: String
        if let player = environment["PHOTOGRID_PLAYER"], !player.allSatisfy({ $0 == " " }) {
            let program = player.split(separator: " ").first.map(String.init) ?? player
            guard ChildProcess.isRunnable(program, path: environment["PATH"]) else { return "PHOTOGRID_PLAYER: \(program) not found" }
            command = "$PHOTOGRID_PLAYER \"$1\""
        } else if ChildProcess.isRunnable("mpv", path: environment["PATH"]) {
            command = "mpv -- \"$1\""
        } else if ChildProcess.isRunnable("xdg-open", path: environment["PATH"]) {
            command = "xdg-open \"$1\""
        } else {
            return "no video player: install mpv or set PHOTOGRID_PLAYER"
        }
        let status = SignalSources.ignoringInterrupts { ShellScript.run(command, arguments: [video.bytes], terminal: .inherited) }
        guard let status else { return "cannot run /bin/sh" }
        let code = (status >> 8) & 0xFF
        return status & 0x7F == 0 && code != 0 ? "the player stopped with status \(code)" : nil
    }
}
