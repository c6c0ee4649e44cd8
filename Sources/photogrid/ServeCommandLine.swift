import PhotoGridCore
import PhotoGridServe

/// `photogrid serve DIR`: a folder as a gallery for `photogrid --url`, over HTTP.
enum ServeCommandLine {
    /// What the server does unless told otherwise: the help shows these, not copies of them.
    static let defaults = GalleryServer.Configuration(folder: "")

    static let syntax = CommandSyntax(
        name: "photogrid serve",
        overview: "Serve a folder of photos to `photogrid --url`: a manifest, renditions made here, and the originals.",
        // Every option in the usage line would take 216 columns.
        usage: "photogrid serve <folder> [--host <host>] [--port <port>] [<options>]",
        arguments: [CommandArgument("folder", help: "The folder to serve; nothing outside it is ever served.")],
        options: [
            .value("--host", default: defaults.host, help: "The address to listen on (0.0.0.0 opens the gallery to the network, with an access token)."),
            .value("--port", default: String(defaults.port), help: "The port to listen on."),
            .value("--delay-ms", default: String(defaults.delayMilliseconds), help: "Wait this long before every response: to try photogrid over a slow network."),
            .flag("--log", help: "Write a line for every request to stderr."),
            .flag("--no-cache", help: "Make every rendition again instead of keeping them on disk."),
            .value("--client-connections", default: String(defaults.limits.perClient), help: "At most this many connections from one address (many people behind one NAT address need more)."),
            .value("--tls-cert", help: "Serve HTTPS with this certificate (PEM, with its chain); needs --tls-key."),
            .value("--tls-key", help: "The certificate's private key (PEM)."),
            .value("--token", help: "The access token the gallery's URL must carry (16 to 128 letters, digits, - or _). Made up for any address but loopback; printed inside the URL to give to --url."),
        ])

    static func run(_ line: ParsedCommandLine) throws(CommandLineError) -> Int32 {
        let cache = line.flag("--no-cache") ? nil : DiskCache.defaultDirectory(environment: Environment.values(Environment.cacheNames)).map { $0 + "/serve" }
        var configuration = GalleryServer.Configuration(folder: line.argument(0)!, cacheDirectory: cache, log: line.flag("--log"))
        if let host = line.string("--host") { configuration.host = host }
        if let port = try line.int("--port") { configuration.port = port }
        if let delay = try line.int("--delay-ms") { configuration.delayMilliseconds = delay }
        if let perClient = try line.int("--client-connections") { configuration.limits.perClient = perClient }
        // Beyond loopback, anyone who reaches the port would see every photo: a token is asked.
        configuration.token = line.string("--token") ?? (configuration.isLoopback ? nil : GalleryServer.newToken())
        configuration.tlsCertificate = line.string("--tls-cert")
        configuration.tlsKey = line.string("--tls-key")
        return ServeCommand.run(configuration)
    }
}
