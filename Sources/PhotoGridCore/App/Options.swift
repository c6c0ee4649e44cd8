/// Everything the command line decides, parsed by the executable and handed over here.
public struct Options: Sendable {
    /// A folder, or for `--print` a single photo.
    public var path: String
    public var columns: Int?
    public var mode: ModeChoice = .auto
    public var fit: FitMode = .fill
    public var cacheMegabytes = 512
    /// Thumbnails kept on disk between runs, under $XDG_CACHE_HOME/photogrid; 0 turns it off.
    public var diskCacheMegabytes = 512
    public var print = false
    /// `--probe`: report what the terminal answered and what photogrid would do, then exit.
    public var probe = false
    /// `--url`: a remote gallery instead of a folder.
    public var url: String?
    /// `--connections`: at most this many connections to the gallery's server.
    public var connections = 6
    /// `--size COLSxROWS` for `--print`.
    public var size: (columns: Int, rows: Int)?
    /// `--cell-size WxH`: pixels of a cell, for sixel.
    public var cellSize: (width: Int, height: Int)?

    /// `--sort` and `--reverse`.
    public var order = PhotoOrder()
    /// `--sort` or `--reverse` was given: a remote gallery's own order gives way to it.
    public var sortGiven = false
    /// `--group`: sections in the grid.
    public var grouping: Grouping = .none
    /// `--hidden`: names starting with a dot too.
    public var showHidden = false
    /// `-o` / `-0`: at quit, the marked photos' paths (else the focused one's) on stdout, each
    /// ended by a newline or by a NUL; the grid then goes to /dev/tty.
    public enum PathOutput: Sendable { case lines, nul }
    public var pathOutput: PathOutput?
    /// `--slideshow N`: seconds a photo in the slideshow (`s` in the photo view).
    public var slideshowSeconds = 4
    /// `--labels`: with `--print`, each photo's name under its tile.
    public var labels = false
    /// `--read-only`: no caption is saved (no sidecar written); only the cache is written.
    public var readOnly = false

    public init(path: String) { self.path = path }
}

/// A failure that ends the program with a message and a status.
public struct ExitError: Error, CustomStringConvertible {
    public let description: String
    public let status: Int32
    public init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}
