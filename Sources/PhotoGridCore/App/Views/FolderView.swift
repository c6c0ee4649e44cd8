import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// `C` and `V`: the folder the marked photos (else the focused one) are copied or moved to, typed
/// on the status line as in a shell: it starts at the folder used last (else the gallery's), Tab
/// completes a folder's name, Up and Down go through the folders used before. `~` is the home
/// folder; a relative path is taken from the gallery's folder. A folder not there yet is made
/// (the prompt says so before Enter). Esc leaves everything where it is.
final class FolderView: AppView {
    private(set) var line: TypedLine
    let photos: [PhotoID]
    let copy: Bool
    /// Folders used before, newest first.
    let recent: [String]
    /// Where a relative path starts, and what `~` stands for.
    let base: RawPath
    let home: String?
    private var recentIndex = -1
    private var matches = 0

    init(photos: [PhotoID], copy: Bool, recent: [String], base: RawPath, home: String?) {
        self.photos = photos
        self.copy = copy
        self.recent = recent
        self.base = base
        self.home = home
        let start = recent.first ?? base.description
        // Up goes on from the folder already on the line.
        if !recent.isEmpty { recentIndex = 0 }
        line = TypedLine(bytes: Array((start.hasSuffix("/") ? start : start + "/").utf8))
    }

    /// The folder a typed line names, as an absolute path (`~` and relative paths resolved).
    static func resolve(_ text: String, base: RawPath, home: String?) -> RawPath? {
        var path = text.trimmingWhitespace
        guard !path.isEmpty else { return nil }
        if path == "~" || path.hasPrefix("~/") {
            guard let home else { return nil }
            path = home + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = base.description + "/" + path }
        // Trailing and doubled slashes dropped; "." kept out; ".." taken back a step.
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return RawPath("/" + parts.joined(separator: "/"))
    }

    /// The line with its last name completed as far as the folders that start with it agree,
    /// a "/" after a folder that is the only one; and how many there are.
    static func complete(_ text: String, base: RawPath, home: String?) -> (text: String, matches: Int) {
        let slash = text.lastIndex(of: "/")
        let head = slash.map { String(text[...$0]) } ?? ""
        let typed = slash.map { String(text[text.index(after: $0)...]) } ?? text
        guard let folder = resolve(head.isEmpty ? "." : head, base: base, home: home) else { return (text, 0) }
        let names = DirectoryEntry.statuses(in: folder).compactMap { name, status -> String? in
            let text = String(decoding: name, as: UTF8.self)
            guard text.hasPrefix(typed), typed.hasPrefix(".") || !text.hasPrefix(".") else { return nil }
            // A link to a folder is a folder here.
            let isFolder = status.isDirectory || (status.kind == .symbolicLink && folder.appending(name).status()?.isDirectory == true)
            return isFolder ? text : nil
        }.sorted()
        guard let first = names.first else { return (text, 0) }
        if names.count == 1 { return (head + first + "/", 1) }
        var common = first
        for other in names.dropFirst() {
            while !other.hasPrefix(common) { common.removeLast() }
        }
        return (head + common, names.count)
    }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        switch key {
        case .escape: return .taken([.close(self), .notice("nothing " + (copy ? "copied" : "moved"))])
        case .enter:
            guard !line.text.trimmingWhitespace.isEmpty else { return .taken([.close(self), .notice("no folder: nothing " + (copy ? "copied" : "moved"))]) }
            return .taken([.close(self), .transfer(photos, folder: line.text, copy: copy)])
        case .control("i"):                 // Tab
            let (text, found) = FolderView.complete(line.text, base: base, home: home)
            line = TypedLine(bytes: Array(text.utf8))
            matches = found
        case .up, .down:
            guard !recent.isEmpty else { break }
            recentIndex = max(0, min(recent.count - 1, recentIndex + (key == .up ? 1 : -1)))
            line = TypedLine(bytes: Array(recent[recentIndex].utf8))
        default:
            line.take(key) { $0.count <= 4096 }
            matches = 0
        }
        return .done
    }

    func prompt(_ context: ViewContext) -> String? {
        let what = photos.count > 1 ? "\(photos.count) marked photos" : "the photo"
        let target = FolderView.resolve(line.text, base: base, home: home)
        let fresh = target.map { $0.status() == nil } ?? false
        return (copy ? "copy " : "move ") + what + " to" + (fresh ? " (a new folder)" : "") + ": "
            + line.shown(room: max(10, context.screen.columns - 70)) + "_"
    }

    func hint(_ context: ViewContext) -> String? {
        (matches > 1 ? "\(matches) match  " : "") + "Tab complete  Up recent  Enter " + (copy ? "copy" : "move") + "  Esc cancel "
    }
}
