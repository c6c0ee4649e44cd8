import GalleryFormats
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// `photogrid export DIR OUT`, after its arguments are parsed: progress on stderr while it runs
/// (a line rewritten in place on a terminal), then what was done, and the exit status.
package enum ExportCommand {
    package static func run(_ configuration: GalleryExport.Configuration) -> Int32 {
        if configuration.output.lowercased().hasPrefix("s3://") { return runToBucket(configuration) }
        return run(configuration, then: nil)
    }

    /// `export DIR s3://BUCKET/PREFIX`: the export made in the cache, then brought to the bucket.
    static func runToBucket(_ configuration: GalleryExport.Configuration) -> Int32 {
        let target = configuration.output
        let location: BucketLocation, access: BucketAccess
        do throws(BucketAccess.Problem) {
            access = try BucketAccess.fromEnvironment()
            location = try access.location(of: target)
        } catch {
            say("photogrid: \(error.description)")
            return 2
        }
        guard let staging = BucketExport.stagingFolder(for: target, environment: Environment.values(["XDG_CACHE_HOME", "HOME"])) else {
            say("photogrid: no folder for the export's cache: set HOME or XDG_CACHE_HOME")
            return 1
        }
        let settings = TransferSettings()
        if let signer = access.signer { settings.buckets.add(signer, for: location.base.origin) }
        let loop = TransferLoop(settings: settings)
        defer { loop.shutdown() }
        let upload = BucketExport(client: BucketClient(location: location, loop: loop), staging: staging, target: target)
        // The bucket is asked first: a wrong name, key or endpoint is said before anything is made.
        let remote: [String: BucketAnswer.Object]
        do throws(FetchError) { remote = try upload.existing() } catch {
            say("photogrid: cannot publish to \(TerminalText.sanitize(target)): \(TerminalText.sanitize(error.description))")
            return 1
        }
        var local = configuration
        local.output = staging
        return run(local) { summary in
            let onTerminal = TTY.isTerminal(2)
            let progress = ProgressLine(words: "uploading", things: "files")
            let sent: BucketExport.Summary
            do throws(FetchError) {
                sent = try upload.run(over: remote) { done, total in progress.show(done, of: total) }
            } catch {
                if onTerminal { _ = try? TTY.writeAll(Array("\n".utf8), to: 2) }
                say("photogrid: cannot publish to \(TerminalText.sanitize(target)): \(TerminalText.sanitize(error.description))")
                return 1
            }
            if onTerminal && sent.uploaded > 0 { _ = try? TTY.writeAll(Array("\n".utf8), to: 2) }
            let exported = summary.made + summary.kept
            var parts = ["\(sent.uploaded) file\(sent.uploaded == 1 ? "" : "s") uploaded", "\(sent.unchanged) unchanged"]
            if sent.removed > 0 { parts.append("\(sent.removed) old file\(sent.removed == 1 ? "" : "s") removed") }
            parts.append("\(sent.requests) request\(sent.requests == 1 ? "" : "s")")
            say("photogrid: exported \(exported) photo\(exported == 1 ? "" : "s") to \(TerminalText.sanitize(target)) ("
                + parts.joined(separator: ", ") + "); browse with: photogrid --url \(TerminalText.sanitize(target.hasSuffix("/") ? target : target + "/"))")
            return summary.failed.isEmpty ? 0 : 3
        }
    }

    /// The export to a folder; `then` (a bucket's upload) instead of the report when given.
    static func run(_ configuration: GalleryExport.Configuration, then: ((GalleryExport.Summary) -> Int32)?) -> Int32 {
        let export: GalleryExport
        do throws(GalleryExport.ExportError) { export = try GalleryExport(configuration) } catch {
            say("photogrid: \(TerminalText.sanitize(error.description))")
            return error.status
        }
        if export.excludedCount > 0 {
            say("photogrid: left out \(export.excludedCount) photo\(export.excludedCount == 1 ? "" : "s") linked from outside "
                + TerminalText.sanitize(configuration.folder))
        }
        let onTerminal = TTY.isTerminal(2)
        let progress = ProgressLine(words: "exporting", things: "photos")
        let summary: GalleryExport.Summary
        do throws(GalleryExport.ExportError) {
            summary = try export.run { done, total in progress.show(done, of: total) }
        } catch {
            if onTerminal { _ = try? TTY.writeAll(Array("\n".utf8), to: 2) }
            say("photogrid: \(TerminalText.sanitize(error.description))")
            return 1
        }
        if onTerminal { _ = try? TTY.writeAll(Array("\n".utf8), to: 2) }
        for failure in summary.failed {
            say("photogrid: left out \(TerminalText.sanitize(failure.id)): \(TerminalText.sanitize(failure.reason))")
        }
        if let then { return then(summary) }
        say(report(summary, output: configuration.output))
        return summary.failed.isEmpty ? 0 : 3
    }

    /// "photogrid: exported 40 photos to OUT (3 made, 37 unchanged, 1 file removed) ..."
    static func report(_ summary: GalleryExport.Summary, output: String) -> String {
        let exported = summary.made + summary.kept
        var parts = ["\(summary.made) made", "\(summary.kept) unchanged"]
        if summary.removed > 0 { parts.append("\(summary.removed) old file\(summary.removed == 1 ? "" : "s") removed") }
        if !summary.failed.isEmpty { parts.append("\(summary.failed.count) left out") }
        return "photogrid: exported \(exported) photo\(exported == 1 ? "" : "s") to \(TerminalText.sanitize(output)) ("
            + parts.joined(separator: ", ") + "); serve it with any web server and browse with: "
            + "photogrid --url http://HOST/PATH/\(GalleryExport.manifestName)"
    }

    static func say(_ line: String) { ServeCommand.say(line, to: 2) }
}

/// "photogrid: exporting 12 of 57 photos", rewritten in place on a terminal's stderr (nowhere
/// else), at most ten times a second and the last one always.
struct ProgressLine: Sendable {
    let words: String, things: String
    private let onTerminal = TTY.isTerminal(2)
    private let lastShown = Locked(0)

    init(words: String, things: String) { (self.words, self.things) = (words, things) }

    func show(_ done: Int, of total: Int) {
        guard onTerminal else { return }
        let now = SystemClock().now()
        guard done == total || lastShown.withLock({ shown in defer { shown = max(shown, now) }; return now - shown >= 100 }) else { return }
        _ = try? TTY.writeAll(Array("\rphotogrid: \(words) \(done) of \(total) \(things)".utf8), to: 2)
    }
}
