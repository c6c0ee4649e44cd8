import PhotoGridCore
import PhotoGridServe

/// The command line: `serve` or `export` first is that command's line, anything else the
/// browser's (a folder named serve is ./serve). Parses, then hands over to PhotoGridCore or
/// PhotoGridServe.
@main
enum PhotoGridCommand {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "serve":
            Allocator.returnLargeBlocks()
            CommandLineRun.run(ServeCommandLine.syntax, Array(arguments.dropFirst()), ServeCommandLine.run)
        case "export":
            Allocator.returnLargeBlocks()
            CommandLineRun.run(ExportCommandLine.syntax, Array(arguments.dropFirst()), ExportCommandLine.run)
        default:
            CommandLineRun.run(BrowserCommandLine.syntax, arguments, BrowserCommandLine.run)
        }
    }
}

/// `photogrid [options] [path]`: the browser.
enum BrowserCommandLine {
    static let syntax = CommandSyntax(
        name: "photogrid",
        overview: "Browse a folder of photos as a grid in the terminal (kitty graphics, iTerm2 images, sixel or Unicode half-blocks).",
        discussion: [
            "Keys (? shows them in the grid): arrows or h j k l move, PgUp/PgDn/Space/b a screen, Ctrl-D/Ctrl-U half a screen, g/G (Home/End) first and last, + (or =) fewer and larger photos, - more and smaller, 1-6 that many columns, a between whole photos (fit) and square crops (fill), Enter or z the photo itself (+/- zoom, n/p next and previous, s slideshow, Esc back), i details, / find by name (n/N next and previous match, Esc clears), s sort by name, date, mtime or size, r reverse, S sections by folder, day or month, . hidden files, Ctrl-L redraw, Ctrl-R read the folder again, m mark (M all or none), o open with $PHOTOGRID_OPENER or xdg-open, y copy the path, e edit the caption (saved in photo.jpg.xmp beside the photo; not with --read-only), R then 1-5 rate (0 clears; 1-5 alone in the photo view), x reject, L then r/y/g/b/p colour label (0 none), t keywords (a, b, -c; Tab completes), \\ filter by what photos are, f filter by rating, d move to the trash (after y), C and V copy and move to a folder, [ and ] turn left and right, Tab open or close a stack of a burst, u undo the last change to files (trash, move, copy), c compare the 2-4 marked photos, - at 6 columns days, then months and years as cards, Esc close a panel, q quit.",
            "photogrid serve DIR serves a folder to `photogrid --url` (see `photogrid serve --help`); photogrid export DIR OUT writes it as a static gallery (see `photogrid export --help`); a folder named serve or export is ./serve or ./export.",
        ],
        arguments: [
            CommandArgument("path", optional: true, help: "A folder of photos, searched recursively; or a photo, to open its folder with it focused (default: the current folder)."),
        ],
        options: [
            .value("--url", help: "Browse the gallery at this http, https, sftp or s3 URL instead: a photogrid manifest, a web directory listing, a WebDAV share, an SFTP folder, a bucket (s3://BUCKET/PREFIX/, keys as the AWS tools read them), or `photogrid serve`."),
            .value("--connections", default: String(BrowserArguments.defaults.remote.connections), help: "With --url: at most this many connections to the server."),
            .value("--ca-cert", help: "With an https --url: also trust the certificates in this PEM file (a server's own, self-signed one)."),
            .value("--user", value: "name", help: "With --url: log in as this user; the password is asked on the terminal. Without it, ~/.netrc (or $NETRC) is read, as curl does."),
            .value("--files", value: "file", help: "Show the photos this file names, one a line, in its order (- for stdin: `fd -e jpg | photogrid --files -`); a folder in it brings its photos."),
            .value("--files0", value: "file", help: "As --files, each name ended by a NUL (`find -print0 | photogrid --files0 -`)."),
            .value("--columns", help: "Columns, 1-6 (default: the fewest at which every photo fits on one screen, else 4)."),
            .value("--mode", choices: ModeChoice.allCases.map(\.rawValue), help: "auto, kitty, iterm, sixel or halfblock (default: $PHOTOGRID_MODE, else auto)."),
            .flag("--fit", help: "Show whole photos, letterboxed, instead of square crops."),
            .value("--cache-mb", help: "Memory for decoded and encoded tiles, in MB."),
            .value("--disk-cache-mb", help: "Thumbnails kept on disk between runs (in $XDG_CACHE_HOME/photogrid), in MB."),
            .flag("--no-disk-cache", help: "Neither read nor write the disk cache of thumbnails."),
            .value("--sort", choices: PhotoOrder.Key.allCases.map(\.rawValue), help: "Order: name (natural, each folder's photos together), date (taken, from EXIF, else the file's time), mtime or size."),
            .flag("--reverse", help: "The order reversed."),
            .value("--group", choices: Grouping.allCases.map(\.rawValue), help: "Sections with a header line: folder, day, month, year or none."),
            .flag("--hidden", help: "Show hidden files and folders (names starting with a dot) too."),
            .flag("--no-stacks", help: "Show every photo of a burst as its own tile, not as one stack (Tab)."),
            .flag("--duplicates", help: "Print the groups of identical and of near-identical photos (bursts, copies saved again), one group a paragraph, then exit."),
            .flag("--no-watch", help: "Do not watch the folder while open: photos copied in or deleted show after Ctrl-R, not by themselves."),
            .flag("-o", help: "At quit, write the marked photos' paths (else the focused one's) to stdout, one a line; the grid goes to the terminal (/dev/tty)."),
            .flag("-0", help: "As -o, each path ended by a NUL (for xargs -0)."),
            .flag("--read-only", help: "Write nothing but photogrid's cache: no caption or rating saved to sidecars, nothing moved to the trash."),
            .value("--min-rating", help: "Show only photos with at least this many stars (1-5), as xmp:Rating in their sidecars or in them."),
            .flag("--rejected", help: "Show only the rejected photos (xmp:Rating -1)."),
            .value("--filter", value: "expr", help: "Show only the photos that match, e.g. 'camera:x100v 2019..2021 rating>=4' (README, \"Filter\")."),
            .flag("--print", help: "Write one frame to stdout once every visible photo has loaded, then exit."),
            .flag("--labels", help: "With --print: each photo's name under its tile."),
            .value("--size", help: "With --print: the frame's size in cells, COLSxROWS (default: the terminal's, else 80x24)."),
            .value("--slideshow", default: String(BrowserArguments.defaults.slideshowSeconds), help: "Seconds a photo in the slideshow (s in the photo view)."),
            .flag("--no-mouse", help: "Leave the mouse to the terminal (text selection without Shift): no clicks or wheel in photogrid."),
            .flag("--probe", help: "Report what the terminal answers (sixel, cell size) and what photogrid would use, then exit."),
            .value("--cell-size", help: "A cell's size in pixels, WxH, for sixel (default: asked of the terminal, else 10x20)."),
        ],
        version: PhotoGridVersion.text)

    static func run(_ line: ParsedCommandLine) throws(CommandLineError) -> Int32 {
        let given = try BrowserArguments(line)
        // Image buffers mapped apart and unmapped when freed keep a browsing process small at
        // rest (Allocator). --print ends once its frame is written, so its buffers are left to
        // malloc's heaps and reused: a third of the page faults, 8% off a cold frame of 18
        // photos (291 to 267 ms), a higher peak for the largest decodes (HEIC: 97 to 113 MB).
        if !given.print { Allocator.returnLargeBlocks() }
        // The config file's defaults, under the command line (and the environment's PHOTOGRID_ names).
        let config: ConfigFile
        do { config = try ConfigFile.path(environment: Environment.values(["XDG_CONFIG_HOME", "HOME"])).map(ConfigFile.load) ?? ConfigFile() } catch {
            PhotoGrid.printError(error.description)
            return error.status
        }
        let options = given.options(config: config)
        return options.remote.url == nil ? PhotoGrid.main(options) : RemoteCommand.run(options)
    }
}
