import PhotoGridCore
import PhotoGridServe

/// `photogrid export DIR OUT`: a folder as a static gallery, plain files for any web server.
enum ExportCommandLine {
    static let syntax = CommandSyntax(
        name: "photogrid export",
        overview: "Write a folder of photos as a static gallery for `photogrid --url`: a manifest, renditions and copies of the originals, as plain files any web server, object store or CDN can serve.",
        discussion: ["Run it again to bring OUT up to date: only photos changed since are made again, and files of photos gone are removed once the new manifest is in place. Browse with: photogrid --url http://HOST/PATH/manifest.json"],
        usage: "photogrid export <folder> <output> [--sizes <sizes>] [--force]",
        arguments: [
            CommandArgument("folder", help: "The folder of photos; nothing is written in it."),
            CommandArgument("output", help: "Where the gallery goes: a new or empty folder, or an earlier export of the same folder; or a bucket, s3://BUCKET/PREFIX (credentials as the AWS tools read them)."),
        ],
        options: [
            .value("--sizes", default: GalleryExport.Configuration(folder: "", output: "").sizes.map(String.init).joined(separator: ","), help: "The renditions' long sides in pixels, comma-separated."),
            .flag("--force", help: "Make every file again, even those that are up to date."),
        ])

    static func run(_ line: ParsedCommandLine) throws(CommandLineError) -> Int32 {
        let output = line.argument(1)!
        // `s3://bucket/x` written as a local folder named "s3:" would be a surprise: a URL is
        // refused by its scheme, as --url refuses one it does not read.
        if let scheme = scheme(of: output), scheme != "s3" {
            throw CommandLineError("\(output): export writes to a folder or to s3://BUCKET/PREFIX; \(scheme) is not a place photogrid exports to")
        }
        var configuration = GalleryExport.Configuration(folder: line.argument(0)!, output: output)
        if let sizes = line.string("--sizes") {
            let parsed = sizes.split(separator: ",").map { Int($0.filter { $0 != " " }) }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else {
                throw CommandLineError("--sizes takes whole numbers separated by commas, as 256,1024")
            }
            configuration.sizes = parsed.compactMap { $0 }
        }
        configuration.force = line.flag("--force")
        return ExportCommand.run(configuration)
    }

    /// The scheme of `text` when it is written as a URL ("s3://..."), lower-cased.
    static func scheme(of text: String) -> String? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].hasPrefix("//"), let first = parts[0].first, first.isLetter,
              parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return parts[0].lowercased()
    }
}
