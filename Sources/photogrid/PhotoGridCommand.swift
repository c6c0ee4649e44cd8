import ArgumentParser
import PhotoGridCore
import PhotoGridServe

/// The command line. Parses, then hands over to PhotoGridCore.
@main
struct PhotoGridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photogrid",
        abstract: "Browse a folder of photos as a grid in the terminal (kitty graphics, iTerm2 images, sixel or Unicode half-blocks).",
        discussion: """
        Keys (? shows them in the grid): arrows or h j k l move, PgUp/PgDn/Space/b a screen, Ctrl-D/Ctrl-U half a screen, g/G (Home/End) first and last, + (or =) fewer and larger photos, - more and smaller, 1-6 that many columns, a between whole photos (fit) and square crops (fill), Enter or z the photo itself (+/- zoom, n/p next and previous, s slideshow, Esc back), i details, / find by name (n/N next and previous match, Esc clears), s sort by name, date, mtime or size, r reverse, S sections by folder, day or month, . hidden files, Ctrl-L redraw, Ctrl-R read the folder again, m mark (M all or none), o open with $PHOTOGRID_OPENER or xdg-open, y copy the path, e edit the caption (saved in photo.jpg.xmp beside the photo; not with --read-only), R then 1-5 rate (0 clears; 1-5 alone in the photo view), x reject, L then r/y/g/b/p colour label (0 none), t keywords (a, b, -c; Tab completes), \\ filter by what photos are, f filter by rating, d move to the trash (after y), C and V copy and move to a folder, [ and ] turn left and right, Tab open or close a stack of a burst, u undo the last change to files (trash, move, copy), c compare the 2-4 marked photos, - at 6 columns days, then months and years as cards, Esc close a panel, q quit.

        photogrid serve DIR serves a folder to `photogrid --url` (see `photogrid serve --help`); photogrid export DIR OUT writes it as a static gallery (see `photogrid export --help`); a folder named serve or export is ./serve or ./export.
        """,
        version: PhotoGridVersion.text)

    @Argument(help: "A folder of photos, searched recursively; or a photo, to open its folder with it focused (default: the current folder).")
    package var path: String?

    /// `serve` or `export` first is that command's line; anything else the browser's. (A folder
    /// argument and subcommands in one ArgumentParser command read `serve` as the folder.)
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "serve":
            Allocator.returnLargeBlocks()
            CommandLineRun.run(ServeSubcommand.self, Array(arguments.dropFirst()))
        case "export":
            Allocator.returnLargeBlocks()
            CommandLineRun.run(ExportSubcommand.self, Array(arguments.dropFirst()))
        default: CommandLineRun.run(PhotoGridCommand.self, arguments)
        }
    }

    @OptionGroup var remote: RemoteArguments

    @Option(name: .customLong("files"), help: ArgumentHelp("Show the photos this file names, one a line, in its order (- for stdin: `fd -e jpg | photogrid --files -`); a folder in it brings its photos.", valueName: "file"))
    var files: String?

    @Option(name: .customLong("files0"), help: ArgumentHelp("As --files, each name ended by a NUL (`find -print0 | photogrid --files0 -`).", valueName: "file"))
    var files0: String?

    @Option(parsing: .unconditional, help: "Columns, 1-6 (default: the fewest at which every photo fits on one screen, else 4).")
    var columns: Int?

    @Option(help: "auto, kitty, iterm, sixel or halfblock (default: $PHOTOGRID_MODE, else auto).")
    var mode: ModeChoice?

    @Flag(help: "Show whole photos, letterboxed, instead of square crops.")
    var fit = false

    @OptionGroup var cache: CacheArguments

    @Option(help: "Order: name (natural, each folder's photos together), date (taken, from EXIF, else the file's time), mtime or size.")
    var sort: PhotoOrder.Key?

    @Flag(help: "The order reversed.")
    var reverse = false

    @Option(help: "Sections with a header line: folder, day, month, year or none.")
    var group: Grouping?

    @Flag(help: "Show hidden files and folders (names starting with a dot) too.")
    var hidden = false

    @Flag(name: .customLong("no-stacks"), help: "Show every photo of a burst as its own tile, not as one stack (Tab).")
    var noStacks = false

    @Flag(help: "Print the groups of identical and of near-identical photos (bursts, copies saved again), one group a paragraph, then exit.")
    var duplicates = false

    @Flag(name: .customLong("no-watch"), help: "Do not watch the folder while open: photos copied in or deleted show after Ctrl-R, not by themselves.")
    var noWatch = false

    @OptionGroup var paths: PathArguments

    @Flag(name: .customLong("read-only"), help: "Write nothing but photogrid's cache: no caption or rating saved to sidecars, nothing moved to the trash.")
    var readOnly = false

    @Option(name: .customLong("min-rating"), parsing: .unconditional, help: "Show only photos with at least this many stars (1-5), as xmp:Rating in their sidecars or in them.")
    var minRating: Int?

    @Flag(help: "Show only the rejected photos (xmp:Rating -1).")
    var rejected = false

    @Option(name: .customLong("filter"), help: ArgumentHelp("Show only the photos that match, e.g. 'camera:x100v 2019..2021 rating>=4' (README, \"Filter\").",
                                                           valueName: "expr"))
    var filter: String?

    @OptionGroup var printing: PrintArguments

    @Option(parsing: .unconditional, help: "Seconds a photo in the slideshow (s in the photo view).")
    var slideshow = 4

    @Flag(name: .customLong("no-mouse"), help: "Leave the mouse to the terminal (text selection without Shift): no clicks or wheel in photogrid.")
    var noMouse = false

    @Flag(help: "Report what the terminal answers (sixel, cell size) and what photogrid would use, then exit.")
    var probe = false

    @Option(name: .customLong("cell-size"), help: "A cell's size in pixels, WxH, for sixel (default: asked of the terminal, else 10x20).")
    var cellSize: String?

    /// `PHOTOGRID_MODE`, lower-cased; nil when unset or empty.
    static var environmentMode: String? {
        guard let value = Environment.value("PHOTOGRID_MODE"), !value.isEmpty else { return nil }
        return value.lowercased()
    }

    func validate() throws {
        if let columns, !(1...6).contains(columns) { throw ValidationError("--columns must be between 1 and 6") }
        if let size = printing.size { try PhotoGridCommand.check(size, option: "--size", example: "120x40", least: (1, 2)) }
        if let cellSize { try PhotoGridCommand.check(cellSize, option: "--cell-size", example: "10x20", least: (1, 1)) }
        if let megabytes = cache.megabytes, megabytes < 16 { throw ValidationError("--cache-mb must be at least 16") }
        if let megabytes = cache.diskMegabytes, megabytes < 1 { throw ValidationError("--disk-cache-mb must be at least 1 (--no-disk-cache turns it off)") }
        if printing.size != nil && !printing.print { throw ValidationError("--size goes with --print") }
        if !(1...3600).contains(slideshow) { throw ValidationError("--slideshow must be between 1 and 3600 seconds") }
        if let minRating, !(1...5).contains(minRating) { throw ValidationError("--min-rating must be between 1 and 5") }
        if minRating != nil && rejected { throw ValidationError("--min-rating and --rejected cannot go together") }
        if let filter {
            do { _ = try PhotoQuery(parsing: filter) } catch { throw ValidationError("--filter: \(error)") }
        }
        if printing.labels && !printing.print { throw ValidationError("--labels goes with --print") }
        if mode == nil, PhotoGridCommand.environmentMode.map({ ModeChoice(rawValue: $0) == nil }) == true {
            throw ValidationError("PHOTOGRID_MODE=\(PhotoGridCommand.environmentMode!): auto, kitty, iterm, sixel or halfblock")
        }
        if files != nil && files0 != nil { throw ValidationError("--files and --files0 cannot go together") }
        if files != nil || files0 != nil {
            let option = files != nil ? "--files" : "--files0"
            if path != nil { throw ValidationError("\(option) names the photos: give no folder besides it") }
            if remote.url != nil { throw ValidationError("\(option) and --url cannot go together") }
        }
        if duplicates && (printing.print || probe || paths.output != nil || remote.url != nil) {
            throw ValidationError("--duplicates reads a folder or a list by itself: not with --print, --probe, -o or --url")
        }
        if paths.output != nil && (printing.print || probe) { throw ValidationError("-o and -0 go with the interactive grid, not --print or --probe") }
    }

    package func run() throws {
        // Image buffers mapped apart and unmapped when freed keep a browsing process small at
        // rest (Allocator). --print ends once its frame is written, so its buffers are left to
        // malloc's heaps and reused: a third of the page faults, 8% off a cold frame of 18
        // photos (291 to 267 ms), a higher peak for the largest decodes (HEIC: 97 to 113 MB).
        if !printing.print { Allocator.returnLargeBlocks() }
        // The config file's defaults, under the command line (and the environment's PHOTOGRID_ names).
        let config: ConfigFile
        do { config = try ConfigFile.path(environment: Environment.values(["XDG_CONFIG_HOME", "HOME"])).map(ConfigFile.load) ?? ConfigFile() } catch {
            PhotoGrid.printError(error.description)
            ThisProcess.exit(error.status)
        }
        if let opener = config.opener, Environment.value("PHOTOGRID_OPENER") == nil { Environment.set("PHOTOGRID_OPENER", opener) }
        var options = Options(path: path ?? ".")
        options.columns = columns ?? config.columns
        options.keyBindings = config.bindings
        // --mode, else PHOTOGRID_MODE (as timg's TIMG_PIXELATION and chafa's CHAFA_... choose for
        // every run), else what the terminal says.
        options.mode = mode ?? PhotoGridCommand.environmentMode.flatMap { ModeChoice(rawValue: $0) } ?? config.mode ?? .auto
        options.fit = fit || config.fit == true ? .fit : .fill
        options.cacheMegabytes = cache.megabytes ?? config.cacheMegabytes ?? 512
        options.diskCacheMegabytes = cache.noDisk ? 0 : cache.diskMegabytes ?? config.diskCacheMegabytes ?? 512
        options.print = printing.print
        options.order = PhotoOrder(sort ?? config.sort ?? .name, reversed: reverse || config.reverse == true)
        options.sortGiven = sort != nil || reverse || config.sort != nil || config.reverse == true
        options.showHidden = hidden
        options.watch = !noWatch
        options.stacks = !noStacks && config.stacks != false
        options.duplicates = duplicates
        options.grouping = group ?? config.group ?? .none
        options.labels = printing.labels
        options.slideshowSeconds = slideshow
        options.readOnly = readOnly
        options.filter = rejected ? .rejected : minRating.map { .atLeast($0) } ?? .all
        options.query = try filter.map { text in
            do { return try PhotoQuery(parsing: text) } catch { throw ValidationError("--filter: \(error)") }
        }
        options.pathOutput = paths.output
        options.probe = probe
        options.mouse = !noMouse
        options.remote.url = remote.url
        options.remote.connections = remote.connections
        options.remote.trustedCertificates = remote.caCertificate
        options.remote.user = remote.user
        options.size = printing.size.flatMap(PhotoGridCommand.pair).map { (columns: $0.0, rows: $0.1) }
        options.cellSize = cellSize.flatMap(PhotoGridCommand.pair).map { (width: $0.0, height: $0.1) }
        options.fileList = files.map { Options.FileList(path: $0, nul: false) } ?? files0.map { Options.FileList(path: $0, nul: true) }
        ThisProcess.exit(remote.url == nil ? PhotoGrid.main(options) : RemoteCommand.run(options))
    }

    /// "120x40" as (120, 40), when both are numbers of at most 10,000.
    static func pair(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a <= 10_000, b <= 10_000 else { return nil }
        return (a, b)
    }

    /// A WxH value checked for its form, then for its least size, each with its own words.
    static func check(_ text: String, option: String, example: String, least: (Int, Int)) throws {
        guard let (a, b) = pair(text) else { throw ValidationError("\(option) must look like \(example), two numbers up to 10000") }
        guard a >= least.0, b >= least.1 else { throw ValidationError("\(option) must be at least \(least.0)x\(least.1)") }
    }}

extension ModeChoice: ExpressibleByArgument {}
extension PhotoOrder.Key: ExpressibleByArgument {}
extension Grouping: ExpressibleByArgument {}

/// `photogrid serve DIR`: a folder as a gallery for `photogrid --url`, over HTTP.
struct ServeSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photogrid serve",
        abstract: "Serve a folder of photos to `photogrid --url`: a manifest, renditions made here, and the originals.",
        // ArgumentParser's own usage line names every option: 216 columns.
        usage: "photogrid serve <folder> [--host <host>] [--port <port>] [<options>]")

    @Argument(help: "The folder to serve; nothing outside it is ever served.")
    var folder: String

    @Option(help: "The address to listen on (0.0.0.0 opens the gallery to the network, with an access token).")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port to listen on.")
    var port = GalleryServer.defaultPort

    @Option(name: .customLong("delay-ms"), parsing: .unconditional, help: "Wait this long before every response: to try photogrid over a slow network.")
    var delayMilliseconds = 0

    @Flag(help: "Write a line for every request to stderr.")
    var log = false

    @Flag(name: .customLong("no-cache"), help: "Make every rendition again instead of keeping them on disk.")
    var noCache = false

    @Option(name: .customLong("client-connections"), parsing: .unconditional, help: "At most this many connections from one address (many people behind one NAT address need more).")
    var clientConnections = 32

    @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this certificate (PEM, with its chain); needs --tls-key.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The certificate's private key (PEM).")
    var tlsKey: String?

    @Option(help: "The access token the gallery's URL must carry (16 to 128 letters, digits, - or _). Made up for any address but loopback; printed inside the URL to give to --url.")
    var token: String?

    package func run() throws {
        let cache = noCache ? nil : DiskCache.defaultDirectory(environment: Environment.values(Environment.cacheNames)).map { $0 + "/serve" }
        var configuration = GalleryServer.Configuration(folder: folder, host: host, port: port, cacheDirectory: cache,
                                                        delayMilliseconds: delayMilliseconds, log: log)
        // Beyond loopback, anyone who reaches the port would see every photo: a token is asked.
        configuration.token = token ?? (configuration.isLoopback ? nil : GalleryServer.newToken())
        configuration.limits.perClient = clientConnections
        configuration.tlsCertificate = tlsCertificate
        configuration.tlsKey = tlsKey
        ThisProcess.exit(ServeCommand.run(configuration))
    }
}

/// `photogrid export DIR OUT`: a folder as a static gallery, plain files for any web server.
struct ExportSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photogrid export",
        abstract: "Write a folder of photos as a static gallery for `photogrid --url`: a manifest, renditions and copies of the originals, as plain files any web server, object store or CDN can serve.",
        discussion: "Run it again to bring OUT up to date: only photos changed since are made again, and files of photos gone are removed once the new manifest is in place. Browse with: photogrid --url http://HOST/PATH/manifest.json")

    @Argument(help: "The folder of photos; nothing is written in it.")
    var folder: String

    @Argument(help: "Where the gallery goes: a new or empty folder, or an earlier export of the same folder; or a bucket, s3://BUCKET/PREFIX (credentials as the AWS tools read them).")
    package var output: String

    @Option(name: .customLong("sizes"), help: "The renditions' long sides in pixels, comma-separated.")
    var sizes = "256,512,1024,2048"

    @Flag(help: "Make every file again, even those that are up to date.")
    var force = false

    func validate() throws {
        // `s3://bucket/x` written as a local folder named "s3:" would be a surprise: a URL is
        // refused by its scheme, as --url refuses one it does not read.
        if let scheme = ExportSubcommand.scheme(of: output), scheme != "s3" {
            throw ValidationError("\(output): export writes to a folder or to s3://BUCKET/PREFIX; \(scheme) is not a place photogrid exports to")
        }
    }

    /// The scheme of `text` when it is written as a URL ("s3://..."), lower-cased.
    static func scheme(of text: String) -> String? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].hasPrefix("//"), let first = parts[0].first, first.isLetter,
              parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return parts[0].lowercased()
    }

    package func run() throws {
        var configuration = GalleryExport.Configuration(folder: folder, output: output)
        let parsed = sizes.split(separator: ",").map { Int($0.filter { $0 != " " }) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--sizes takes whole numbers separated by commas, as 256,1024")
        }
        configuration.sizes = parsed.compactMap { $0 }
        configuration.force = force
        ThisProcess.exit(ExportCommand.run(configuration))
    }
}

/// `--url` and what goes with it.
struct RemoteArguments: ParsableArguments {
    @Option(help: "Browse the gallery at this http, https, sftp or s3 URL instead: a photogrid manifest, a web directory listing, a WebDAV share, an SFTP folder, a bucket (s3://BUCKET/PREFIX/, keys as the AWS tools read them), or `photogrid serve`.")
    var url: String?

    @Option(parsing: .unconditional, help: "With --url: at most this many connections to the server.")
    var connections = 6

    @Option(name: .customLong("ca-cert"), help: "With an https --url: also trust the certificates in this PEM file (a server's own, self-signed one).")
    var caCertificate: String?

    @Option(help: ArgumentHelp("With --url: log in as this user; the password is asked on the terminal. Without it, ~/.netrc (or $NETRC) is read, as curl does.",
                               valueName: "name"))
    var user: String?

    func validate() throws {
        if !(1...32).contains(connections) { throw ValidationError("--connections must be between 1 and 32") }
        if let user, user.isEmpty || user.contains(":") {
            throw ValidationError("--user takes a name only: the password is asked on the terminal (or read from ~/.netrc)")
        }
        if let caCertificate, !RawPath(caCertificate).isReadable {
            throw ValidationError("--ca-cert \(caCertificate): \(SystemError.lastMessage())")
        }
    }
}

/// `-o` and `-0`: the chosen photos' paths on stdout at quit.
/// The caches' sizes (`--cache-mb`, `--disk-cache-mb`, `--no-disk-cache`).
struct CacheArguments: ParsableArguments {
    @Option(name: .customLong("cache-mb"), parsing: .unconditional, help: "Memory for decoded and encoded tiles, in MB.")
    var megabytes: Int?

    @Option(name: .customLong("disk-cache-mb"), parsing: .unconditional, help: "Thumbnails kept on disk between runs (in $XDG_CACHE_HOME/photogrid), in MB.")
    var diskMegabytes: Int?

    @Flag(name: .customLong("no-disk-cache"), help: "Neither read nor write the disk cache of thumbnails.")
    var noDisk = false
}

/// One frame to stdout instead of the grid (`--print`), and what goes with it.
struct PrintArguments: ParsableArguments {
    @Flag(help: "Write one frame to stdout once every visible photo has loaded, then exit.")
    var print = false

    @Flag(help: "With --print: each photo's name under its tile.")
    var labels = false

    @Option(help: "With --print: the frame's size in cells, COLSxROWS (default: the terminal's, else 80x24).")
    var size: String?
}

struct PathArguments: ParsableArguments {
    @Flag(name: .customShort("o"), help: "At quit, write the marked photos' paths (else the focused one's) to stdout, one a line; the grid goes to the terminal (/dev/tty).")
    var outputPaths = false

    @Flag(name: .customShort("0"), help: "As -o, each path ended by a NUL (for xargs -0).")
    var outputPathsNul = false

    package var output: Options.PathOutput? { outputPathsNul ? .nul : outputPaths ? .lines : nil }
}
