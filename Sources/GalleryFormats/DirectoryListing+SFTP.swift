/// An SFTP folder as libcurl hands it over: the server's long listing, a line a member, as
/// `ls -l` writes it (OpenSSH and most servers):
///
///     drwxr-xr-x    2 anna     anna         4096 Nov 26 11:33 2024
///     -rw-r--r--    1 anna     anna       120828 Nov 26 11:33 beach 01.jpg
///     lrwxrwxrwx    1 anna     anna           12 Nov 26 11:33 latest -> 2024/trip
///
/// The name is what follows the eighth field, spaces and all; a link's target is cut off. A
/// link is taken for a folder unless its name says picture (a link to a folder is read, and if
/// it is none the crawl says it could not read it).
extension DirectoryListing {
    package static func sftp(_ bytes: [UInt8], url: RemoteURL) -> DirectoryListing? {
        var listing = DirectoryListing()
        var lines = 0
        for line in bytes.split(separator: 0x0A) {
            var text = line
            if text.last == 0x0D { text = text.dropLast() }
            guard let type = text.first, [UInt8(ascii: "d"), UInt8(ascii: "-"), UInt8(ascii: "l")].contains(type),
                  var name = nameAfterFields(text, 8) else { continue }
            lines += 1
            if type == UInt8(ascii: "l"), let arrow = name.firstRange(of: " -> ") { name = String(name[..<arrow.lowerBound]) }
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else { continue }
            let folder = type == UInt8(ascii: "d") || (type == UInt8(ascii: "l") && !looksLikeAPicture(name))
            guard let target = url.resolving(RemoteURL.relativePath(segments: [name], directory: folder)) else { continue }
            if folder { listing.folders.append((name, target)) } else { listing.files.append((name, target)) }
        }
        // An empty folder lists at least "." and "..": no line at all is no listing.
        return lines > 0 || bytes.isEmpty ? listing : nil
    }

    /// What follows the first `count` whitespace-separated fields of `line`.
    private static func nameAfterFields(_ line: ArraySlice<UInt8>, _ count: Int) -> String? {
        var i = line.startIndex, fields = 0
        while fields < count {
            while i < line.endIndex, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
            guard i < line.endIndex else { return nil }
            while i < line.endIndex, line[i] != 0x20 && line[i] != 0x09 { i += 1 }
            fields += 1
        }
        // One separator: a name may start with a space of its own.
        guard i < line.endIndex else { return nil }
        i += 1
        return String(decoding: line[i...], as: UTF8.self)
    }

    private static func looksLikeAPicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return ["jpg", "jpeg", "png", "gif", "webp", "heic", "heif", "avif", "tif", "tiff", "jxl", "mp4", "mov"]
            .contains(name[name.index(after: dot)...].lowercased())
    }
}
