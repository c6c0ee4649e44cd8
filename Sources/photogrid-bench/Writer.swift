import Glibc
import PhotoGridCore
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridSystem

/// `photogrid-bench write KIND ARGS`: one write to a user's files, through the code the app
/// uses for it, alone in a process: what the crash tests (`CrashConsistencyTests`) kill at each
/// of its system calls. Exit 0 when it was written, 1 with the reason when it was refused.
enum Writer {
    static func run(_ arguments: [String]) throws {
        guard let kind = arguments.first, arguments.count >= 2 else { throw BenchError("write KIND FILE [VALUE]") }
        let file = RawPath(arguments[1]), value = arguments.count > 2 ? arguments[2] : ""
        let sidecar = Sidecar.of(file)
        var problem: String?
        switch kind {
        case "rating": problem = sidecar.save(rating: Int(value) ?? 0).map(sidecar.message)
        case "label": problem = sidecar.save(label: value).map(sidecar.message)
        case "caption": problem = sidecar.save(caption: value).map(sidecar.message)
        case "keywords": problem = sidecar.save(keywords: value.split(separator: ",").map(String.init)).map(sidecar.message)
        case "turn": problem = sidecar.save(orientation: Orientation(rawValue: Int(value) ?? 1) ?? .up).map(sidecar.message)
        case "rotate":
            do throws(JPEGRotation.Failure) { _ = try JPEGRotation.rotate(file, value == "left" ? .counterclockwise : .clockwise) } catch { problem = error.description }
        case "move", "copy":
            // FILE is the folder; the files follow.
            let files = arguments.dropFirst(2).map { RawPath($0) }
            do throws(FileMove.Failure) { _ = try FileMove.transfer(files, into: file, copy: kind == "copy") } catch { problem = error.description }
        case "trash":
            guard let trash = Trash(environment: Environment.values(["XDG_DATA_HOME", "HOME"])) else { throw BenchError("no trash") }
            do throws(Trash.Failure) { _ = try trash.move(file) } catch { problem = error.description }
        case "restore":
            // FILE is where it was; then the trashed file and its .trashinfo (`u` after `d`).
            guard arguments.count >= 4, let trash = Trash(environment: Environment.values(["XDG_DATA_HOME", "HOME"])) else { throw BenchError("restore ORIGINAL TRASHED INFO") }
            do throws(Trash.Failure) {
                try trash.restore(Trash.Entry(original: file, trashed: RawPath(arguments[2]), info: RawPath(arguments[3])))
            } catch { problem = error.description }
        default: throw BenchError("write KIND: rating, label, caption, keywords, turn, rotate, move, copy, trash, restore")
        }
        if let problem {
            print(problem)
            exit(1)
        }
    }
}
