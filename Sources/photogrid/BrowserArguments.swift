import PhotoGridCore

/// The browser's command line read into values and checked together: each limit and each pair
/// of options that cannot go together is refused here, before anything runs.
struct BrowserArguments {
    /// What runs unless the command line or the config file says otherwise.
    static let defaults = Options(path: ".")

    var path: String?
    var url: String?
    var connections: Int
    var caCertificate: String?
    var user: String?
    var files: String?
    var files0: String?
    var columns: Int?
    var mode: ModeChoice?
    var fit: Bool
    var cacheMegabytes: Int?
    var diskCacheMegabytes: Int?
    var noDiskCache: Bool
    var sort: PhotoOrder.Key?
    var reverse: Bool
    var group: Grouping?
    var hidden: Bool
    var noStacks: Bool
    var duplicates: Bool
    var noWatch: Bool
    var pathOutput: Options.PathOutput?
    var readOnly: Bool
    var minRating: Int?
    var rejected: Bool
    var query: PhotoQuery?
    var print: Bool
    var labels: Bool
    var size: (columns: Int, rows: Int)?
    var slideshow: Int
    var noMouse: Bool
    var probe: Bool
    var cellSize: (width: Int, height: Int)?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        path = line.argument(0)
        url = line.string("--url")
        connections = try line.int("--connections") ?? BrowserArguments.defaults.remote.connections
        caCertificate = line.string("--ca-cert")
        user = line.string("--user")
        files = line.string("--files")
        files0 = line.string("--files0")
        columns = try line.int("--columns")
        mode = try line.choice("--mode", as: ModeChoice.self)
        fit = line.flag("--fit")
        cacheMegabytes = try line.int("--cache-mb")
        diskCacheMegabytes = try line.int("--disk-cache-mb")
        noDiskCache = line.flag("--no-disk-cache")
        sort = try line.choice("--sort", as: PhotoOrder.Key.self)
        reverse = line.flag("--reverse")
        group = try line.choice("--group", as: Grouping.self)
        hidden = line.flag("--hidden")
        noStacks = line.flag("--no-stacks")
        duplicates = line.flag("--duplicates")
        noWatch = line.flag("--no-watch")
        pathOutput = line.flag("-0") ? .nul : line.flag("-o") ? .lines : nil
        readOnly = line.flag("--read-only")
        minRating = try line.int("--min-rating")
        rejected = line.flag("--rejected")
        print = line.flag("--print")
        labels = line.flag("--labels")
        slideshow = try line.int("--slideshow") ?? BrowserArguments.defaults.slideshowSeconds
        noMouse = line.flag("--no-mouse")
        probe = line.flag("--probe")
        if let filter = line.string("--filter") {
            do { query = try PhotoQuery(parsing: filter) } catch { throw CommandLineError("--filter: \(error)") }
        }
        if let text = line.string("--size") {
            let (columns, rows) = try BrowserArguments.pair(text, option: "--size", example: "120x40", least: (1, 2))
            size = (columns, rows)
        }
        if let text = line.string("--cell-size") {
            let (width, height) = try BrowserArguments.pair(text, option: "--cell-size", example: "10x20", least: (1, 1))
            cellSize = (width, height)
        }
        try check()
    }

    private func check() throws(CommandLineError) {
        func refuse(_ message: String) throws(CommandLineError) { throw CommandLineError(message) }
        if let columns, !(1...6).contains(columns) { try refuse("--columns must be between 1 and 6") }
        if let cacheMegabytes, cacheMegabytes < 16 { try refuse("--cache-mb must be at least 16") }
        if let diskCacheMegabytes, diskCacheMegabytes < 1 { try refuse("--disk-cache-mb must be at least 1 (--no-disk-cache turns it off)") }
        if size != nil && !print { try refuse("--size goes with --print") }
        if !(1...3600).contains(slideshow) { try refuse("--slideshow must be between 1 and 3600 seconds") }
        if let minRating, !(1...5).contains(minRating) { try refuse("--min-rating must be between 1 and 5") }
        if minRating != nil && rejected { try refuse("--min-rating and --rejected cannot go together") }
        if labels && !print { try refuse("--labels goes with --print") }
        if mode == nil, let named = BrowserArguments.environmentMode, ModeChoice(rawValue: named) == nil {
            try refuse("PHOTOGRID_MODE=\(named): auto, kitty, iterm, sixel or halfblock")
        }
        if files != nil && files0 != nil { try refuse("--files and --files0 cannot go together") }
        if files != nil || files0 != nil {
            let option = files != nil ? "--files" : "--files0"
            if path != nil { try refuse("\(option) names the photos: give no folder besides it") }
            if url != nil { try refuse("\(option) and --url cannot go together") }
        }
        if duplicates && (print || probe || pathOutput != nil || url != nil) {
            try refuse("--duplicates reads a folder or a list by itself: not with --print, --probe, -o or --url")
        }
        if pathOutput != nil && (print || probe) { try refuse("-o and -0 go with the interactive grid, not --print or --probe") }
        if !(1...32).contains(connections) { try refuse("--connections must be between 1 and 32") }
        if let user, user.isEmpty || user.contains(":") {
            try refuse("--user takes a name only: the password is asked on the terminal (or read from ~/.netrc)")
        }
        if let caCertificate, !RawPath(caCertificate).isReadable {
            try refuse("--ca-cert \(caCertificate): \(SystemError.lastMessage())")
        }
    }

    /// `PHOTOGRID_MODE`, lower-cased; nil when unset or empty.
    static var environmentMode: String? {
        guard let value = Environment.value("PHOTOGRID_MODE"), !value.isEmpty else { return nil }
        return value.lowercased()
    }

    /// What runs: the command line over the config file's defaults.
    func options(config: ConfigFile) -> Options {
        var options = Options(path: path ?? ".")
        if let opener = config.opener, Environment.value("PHOTOGRID_OPENER") == nil { Environment.set("PHOTOGRID_OPENER", opener) }
        options.columns = columns ?? config.columns
        options.keyBindings = config.bindings
        // --mode, else PHOTOGRID_MODE (as timg's TIMG_PIXELATION and chafa's CHAFA_... choose for
        // every run), else what the terminal says.
        options.mode = mode ?? BrowserArguments.environmentMode.flatMap { ModeChoice(rawValue: $0) } ?? config.mode ?? .auto
        options.fit = fit || config.fit == true ? .fit : .fill
        options.cacheMegabytes = cacheMegabytes ?? config.cacheMegabytes ?? 512
        options.diskCacheMegabytes = noDiskCache ? 0 : diskCacheMegabytes ?? config.diskCacheMegabytes ?? 512
        options.print = print
        options.order = PhotoOrder(sort ?? config.sort ?? .name, reversed: reverse || config.reverse == true)
        options.sortGiven = sort != nil || reverse || config.sort != nil || config.reverse == true
        options.showHidden = hidden
        options.watch = !noWatch
        options.stacks = !noStacks && config.stacks != false
        options.duplicates = duplicates
        options.grouping = group ?? config.group ?? .none
        options.labels = labels
        options.slideshowSeconds = slideshow
        options.readOnly = readOnly
        options.filter = rejected ? .rejected : minRating.map { .atLeast($0) } ?? .all
        options.query = query
        options.pathOutput = pathOutput
        options.probe = probe
        options.mouse = !noMouse
        options.remote.url = url
        options.remote.connections = connections
        options.remote.trustedCertificates = caCertificate
        options.remote.user = user
        options.size = size
        options.cellSize = cellSize
        options.fileList = files.map { Options.FileList(path: $0, nul: false) } ?? files0.map { Options.FileList(path: $0, nul: true) }
        return options
    }

    /// A WxH value ("120x40", numbers of at most 10,000), checked for its form, then for its
    /// least size, each with its own words.
    static func pair(_ text: String, option: String, example: String, least: (Int, Int)) throws(CommandLineError) -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a <= 10_000, b <= 10_000 else {
            throw CommandLineError("\(option) must look like \(example), two numbers up to 10000")
        }
        guard a >= least.0, b >= least.1 else { throw CommandLineError("\(option) must be at least \(least.0)x\(least.1)") }
        return (a, b)
    }
}
