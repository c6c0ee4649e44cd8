import PhotoGridCatalog
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Everything the command line decides, parsed by the executable and handed over here.
package struct Options: Sendable {
    /// A folder, or for `--print` a single photo.
    package var path: String
    package var columns: Int?
    package var mode: ModeChoice = .auto
    package var fit: FitMode = .fill
    package var cacheMegabytes = 512
    /// Thumbnails kept on disk between runs, under $XDG_CACHE_HOME/photogrid; 0 turns it off.
    package var diskCacheMegabytes = 512
    package var print = false
    /// `--probe`: report what the terminal answered and what photogrid would do, then exit.
    package var probe = false
    /// `--url` and what goes with it.
    package var remote = RemoteOptions()
    /// `--size COLSxROWS` for `--print`.
    package var size: (columns: Int, rows: Int)?
    /// `--cell-size WxH`: pixels of a cell, for sixel.
    package var cellSize: (width: Int, height: Int)?

    /// `--sort` and `--reverse`.
    package var order = PhotoOrder()
    /// `--sort` or `--reverse` was given: a remote gallery's own order gives way to it.
    package var sortGiven = false
    /// Asked to sort by date: the dates are read (and the catalog opened) before the first screen.
    package var sortsByDate: Bool { sortGiven && order.key == .date }
    /// `--group`: sections in the grid.
    package var grouping: Grouping = .none
    /// `--hidden`: names starting with a dot too.
    package var showHidden = false
    /// `-o` / `-0`: at quit, the marked photos' paths (else the focused one's) on stdout, each
    /// ended by a newline or by a NUL; the grid then goes to /dev/tty.
    package enum PathOutput: Sendable { case lines, nul }
    package var pathOutput: PathOutput?
    /// `--slideshow N`: seconds a photo in the slideshow (`s` in the photo view).
    package var slideshowSeconds = 4
    /// `--labels`: with `--print`, each photo's name under its tile.
    package var labels = false
    /// `--read-only`: no caption is saved (no sidecar written); only the cache is written.
    package var readOnly = false
    /// `--min-rating N`, `--rejected`: the photos shown by their rating.
    package var filter: RatingFilter = .all
    /// `--filter EXPR`: only the photos that match (`PhotoQuery`), with the rating filter by and.
    package var query: PhotoQuery?
    /// Clicks and the wheel are asked of the terminal (`--no-mouse` leaves the mouse to it:
    /// selecting text without Shift).
    package var mouse = true
    /// `--files FILE` / `--files0 FILE` (`-` for stdin): the photos a list names, one a line or
    /// each ended by a NUL, instead of a folder's.
    package struct FileList: Sendable, Equatable {
        package var path: String
        package var nul: Bool
        package init(path: String, nul: Bool) {
            self.path = path
            self.nul = nul
        }
    }
    package var fileList: FileList?
    /// The folder watched while open (`FolderWatch`); `--no-watch` leaves the list as read until Ctrl-R.
    package var watch = true
    /// Bursts shown as one tile each (`--no-stacks`: every photo its own).
    package var stacks = true
    /// `--duplicates`: the groups printed, no grid (`DuplicatesCommand`).
    package var duplicates = false
    /// Keys bound in the config file: a key pressed, and the key whose action it takes.
    package var keyBindings: [Key: Key] = [:]

    package init(path: String) { self.path = path }

    /// `--url`: a remote gallery instead of a folder.
    package var url: String? { remote.url }
}

/// A remote gallery's options.
package struct RemoteOptions: Sendable {
    /// `--url`: the gallery.
    package var url: String?
    /// `--connections`: at most this many connections to the gallery's server.
    package var connections = 6
    /// `--ca-cert`: a PEM file of certificates to trust for an https gallery (a server's own,
    /// self-signed one), besides the system's.
    package var trustedCertificates: String?
    /// `--user NAME`: log in as NAME, the password asked on the terminal (SFTP: for the keys).
    package var user: String?

    package init() {}
}

/// A failure that ends the program with a message and a status.
package struct ExitError: Error, CustomStringConvertible {
    package let description: String
    package let status: Int32
    package init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}
