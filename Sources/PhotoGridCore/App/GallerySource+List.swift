import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// `--files FILE` and `--files0 FILE`, chafa's and timg's names: the photos another program
/// chose (`fd -e jpg | photogrid --files -`, `find -print0 | photogrid --files0 -`), in the
/// list's order. A folder in the list brings its photos, as on the command line; a name that is
/// not there or not a picture is left out and counted, said once. From stdin, the keys then come
/// from the terminal (/dev/tty), as `-o` arranges for its output.
extension GallerySource {
    /// The most a list may hold: 64 MB is a million long paths.
    static let listLimit = 64 << 20

    package static func list(_ options: Options, _ list: Options.FileList) throws -> GallerySource {
        let fromStdin = list.path == "-"
        let bytes = try readList(list.path)
        var names = bytes.split(separator: list.nul ? 0 : UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Array($0) }
        // A list written on Windows: each line's carriage return is not part of its name.
        if !list.nul { names = names.map { $0.last == 13 ? Array($0.dropLast()) : $0 }.filter { !$0.isEmpty } }
        var photos: [Photo] = [], seen = Set<RawPath>(), missing = 0, notPictures = 0
        var scanner = FolderScanner()
        scanner.showHidden = options.showHidden
        for name in names {
            let given = RawPath(name)
            let path = given.resolved ?? given
            guard let status = path.status() else { missing += 1; continue }
            if status.isDirectory {
                scanner.relativeRoot = given
                for photo in (try? scanner.scan(path)) ?? [] where seen.insert(photo.source.file ?? path).inserted { photos.append(photo) }
                continue
            }
            var format = ImageFormat(fileExtension: path.lowercasedExtension)
            if format == .notAnImage, status.isRegular, let head = try? OpenFile(path).head(16) { format = ImageFormat(content: head) ?? .notAnImage }
            guard format != .notAnImage else { notPictures += 1; continue }
            guard seen.insert(path).inserted else { continue }
            photos.append(Photo(path: path, relativePath: given, fileSize: status.size, format: format, stamp: FileStamp(status)))
        }
        let title = fromStdin ? "stdin" : RawPath(list.path).title
        let leftOut = [missing > 0 ? "\(missing) not found" : nil, notPictures > 0 ? "\(notPictures) not pictures" : nil].compactMap { $0 }
        guard !photos.isEmpty else {
            throw ExitError("no photos in the list \(title)" + (leftOut.isEmpty ? "" : " (" + leftOut.joined(separator: ", ") + ")"))
        }
        if fromStdin && !options.print && options.pathOutput == nil && !TTY.isTerminal(0) {
            // The list was stdin; the keys come from the terminal.
            do throws(SystemError) {
                let tty = try FileDescriptor.open(RawPath("/dev/tty"), .read, options: .noControllingTerminal)
                try tty.closing { tty throws(SystemError) in try tty.duplicate(as: .standardInput) }
            } catch {
                throw ExitError("--files -: the keys need a terminal (/dev/tty: \(error)); --print writes a contact sheet instead", status: 2)
            }
        }
        let (tierStore, cacheProblem) = Caches.tierStoreOrProblem(options)
        var source = GallerySource(title: title, photos: photos, tierStore: tierStore)
        source.notices = (leftOut.isEmpty ? [] : ["the list \(title): " + leftOut.joined(separator: ", ")]) + [cacheProblem].compactMap { $0 }
        return source
    }

    /// The list's bytes, from a file or stdin, or why not.
    private static func readList(_ path: String) throws -> [UInt8] {
        let file: FileDescriptor
        if path == "-" {
            file = .standardInput
        } else {
            do { file = try FileDescriptor.open(RawPath(path), .read) } catch {
                throw ExitError("\(path): cannot read the list (\(error))", status: 2)
            }
        }
        defer { if path != "-" { try? file.close() } }
        let bytes: [UInt8]
        do { bytes = try file.readToEnd(limit: listLimit + 1) } catch {
            throw ExitError("\(path == "-" ? "stdin" : path): cannot read the list (\(error))", status: 2)
        }
        guard bytes.count <= listLimit else { throw ExitError("\(path == "-" ? "stdin" : path): a list of more than 64 MB", status: 2) }
        return bytes
    }
}
