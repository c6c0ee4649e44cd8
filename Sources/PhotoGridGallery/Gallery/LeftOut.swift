import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What a reading of a folder could not take in: folders it could not enter (with the system's
/// reason) and folders deeper than it goes. Said once, on the status line and in `--print`'s
/// stderr, so that a tree shown with fewer photos than it has never looks whole.
package struct LeftOut: Equatable, Sendable {
    package struct Folder: Equatable, Sendable {
        /// Below the folder read, as shown on the status line.
        package var path: String
        package var reason: String
    }

    package private(set) var unreadable: [Folder] = []
    /// Folders below the deepest level read.
    package private(set) var tooDeep = 0
    package var depthLimit = 0
    /// Folders not read because the reading had read as many as it takes (a remote tree's cap).
    package private(set) var pastCap = 0
    package var folderCap = 0

    package init() {}

    package var isEmpty: Bool { unreadable.isEmpty && tooDeep == 0 && pastCap == 0 }

    package mutating func cannotRead(_ path: String, because reason: String) {
        unreadable.append(Folder(path: path.isEmpty ? "." : path, reason: reason))
    }

    package mutating func deeper(than limit: Int) {
        tooDeep += 1
        depthLimit = limit
    }

    package mutating func past(cap: Int) {
        pastCap += 1
        folderCap = cap
    }

    /// The system's "Permission denied" as it goes mid-sentence; "HTTP 403" as it is.
    static func lowered(_ reason: String) -> String {
        guard let second = reason.dropFirst().first, second.isLowercase else { return reason }
        return reason.prefix(1).lowercased() + reason.dropFirst()
    }

    /// "left out: 1 folder photogrid cannot read (Private: permission denied)"; nil when
    /// nothing was left out.
    package var summary: String? {
        var parts: [String] = []
        if let first = unreadable.first {
            let count = unreadable.count == 1 ? "1 folder" : "\(unreadable.count) folders"
            let more = unreadable.count > 1 ? ", \(unreadable[1].path)" + (unreadable.count > 2 ? "..." : "") : ""
            parts.append("\(count) photogrid cannot read (\(first.path): \(LeftOut.lowered(first.reason))\(more))")
        }
        if tooDeep > 0 { parts.append("\(tooDeep == 1 ? "1 folder" : "\(tooDeep) folders") deeper than \(depthLimit) levels") }
        if pastCap > 0 {
            parts.append("\(pastCap == 1 ? "1 folder" : "\(pastCap) folders") past the first \(folderCap) (photogrid reads at most that many)")
        }
        return parts.isEmpty ? nil : "left out: " + parts.joined(separator: "; ")
    }
}
