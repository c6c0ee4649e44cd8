import Dispatch
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// `photogrid serve DIR`, after its arguments are parsed: serves until SIGINT or SIGTERM, then
/// stops cleanly (connections closed, the port freed) and returns the exit status.
package enum ServeCommand {
    package static func run(_ configuration: GalleryServer.Configuration) -> Int32 {
        // Watched before the server starts, so that a signal at any moment means a clean stop,
        // never death in the middle of a response or of a disk cache write. Dispatch sources
        // rather than a mask and sigwait: they work whichever thread the signal lands on, even
        // threads started before this function (the concurrency pool of an async main).
        let quit = Pending<Void>()
        let signals = SignalSources([SignalSources.interrupt, SignalSources.terminate], label: "photogrid.serve.signals") { _ in
            quit.fulfil(())
        }
        defer { signals.cancel() }

        let server: GalleryServer
        do {
            server = try GalleryServer(configuration)
            try server.start()
        } catch {
            say("photogrid: \(TerminalText.sanitize("\(error)"))", to: 2)
            return (error as? GalleryServer.ServeError)?.status ?? 1
        }
        if server.excludedCount > 0 {
            let count = server.excludedCount
            say("photogrid: left out \(count) photo\(count == 1 ? "" : "s") linked from outside "
                + "\(TerminalText.sanitize(configuration.folder)) (or whose names clash once made UTF-8)", to: 2)
        }
        // Written at once, unbuffered: a script reading it through a pipe waits for this line.
        // The URL carries the token beyond loopback: a line that cannot be written is no start.
        do throws(TTY.WriteError) {
            try TTY.writeAll(Array((startLine(photos: server.photoCount, folder: configuration.folder, url: server.url) + "\n").utf8))
        } catch {
            server.stop()
            say("photogrid: cannot write to standard output: \(error.description)", to: 2)
            return 1
        }

        quit.wait()
        server.stop()
        return 0
    }

    static func say(_ line: String, to fd: Int32) {
        _ = try? TTY.writeAll(Array((line + "\n").utf8), to: fd)
    }

    /// "photogrid: serving 40 photos of Photos at http://127.0.0.1:8477/ — browse with: ..."
    static func startLine(photos: Int, folder: String, url: String) -> String {
        let noun = photos == 1 ? "photo" : "photos"
        let shown = TerminalText.sanitize(folder)
        return "photogrid: serving \(photos) \(noun) of \(shown) at \(url) — browse with: photogrid --url \(url)"
    }
}
