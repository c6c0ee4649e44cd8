import PhotoGridModel
import PhotoGridSystem

/// Keeping the directory under its byte limit: least recently read (or written) entries go first.
extension DiskCache {
    /// A file found by a scan. `modified` is the entry's last use, in ns.
    package struct ScannedFile {
        var path: RawPath
        var size: Int
        var modified: Int64
    }

    /// Bytes of all entries on disk, by a scan of the directory: for tests and benchmarks.
    package var totalBytes: Int { scan().entries.reduce(0) { $0 + $1.size } }

    /// Deletes the least recently used entries until the total is at most 80% of the limit, and
    /// temporary files old enough to be strays. Newer temporary files are left: another process
    /// may be writing them. Files that vanish meanwhile (another process trimming) are skipped.
    package func trim() {
        let mark: Int? = state.withLock { s in
            guard !s.trimming else { return nil }
            s.trimming = true
            return s.written
        }
        guard let mark else { return }
        let listing = scan()
        let now = clock.wallNanoseconds()
        for file in listing.temporaries where now - file.modified > DiskCache.strayAge { file.path.remove() }

        // Ties (entries written within one clock tick) go by name, so that the order is stable.
        let oldestFirst = listing.entries.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
        var total = listing.entries.reduce(0) { $0 + $1.size }
        let target = Int(Double(limitBytes) * DiskCache.trimTarget)
        for entry in oldestFirst {
            if total <= target { break }
            if entry.path.remove() || SystemError.lastWasNotFound { total -= entry.size }
        }
        state.withLock { s in
            s.total = total + (s.written - mark)
            s.trimming = false
        }
    }

    /// Adds a finished write to the running total, and trims when the total passes the limit.
    /// The total starts from one scan, made by the first write that needs it.
    func noteWritten(_ bytes: Int) {
        let (known, mark) = state.withLock { s in
            s.written += bytes
            if let total = s.total { s.total = total + bytes }
            return (s.total, s.written)
        }
        var total: Int
        if let known {
            total = known
        } else {
            // This write is already on disk, so the scan counts it.
            let scanned = scan().entries.reduce(0) { $0 + $1.size }
            total = state.withLock { s in
                let total = s.total ?? scanned + (s.written - mark)
                s.total = total
                return total
            }
        }
        if total > limitBytes { trim() }
    }

    /// Every entry and temporary file in the directory and its 256 subfolders. Anything else
    /// found there was not made by photogrid, and is neither counted nor touched.
    package func scan() -> (entries: [ScannedFile], temporaries: [ScannedFile]) {
        var entries: [ScannedFile] = []
        var temporaries: [ScannedFile] = []
        // The root holds only subfolders, and the probe file `init` makes (a stray if it crashed).
        let root = RawPath(directory)
        for (name, status) in DirectoryEntry.statuses(in: root) {
            let path = root.appending(name)
            let text = String(decoding: name, as: UTF8.self)
            if status.isDirectory, DiskCache.isHex(text, count: 2) {
                for (child, childStatus) in DirectoryEntry.statuses(in: path) where childStatus.isRegular {
                    let file = ScannedFile(path: path.appending(child), size: childStatus.size, modified: childStatus.modified)
                    let childText = String(decoding: child, as: UTF8.self)
                    if DiskCache.isHex(childText, count: 32), childText.hasPrefix(text) {
                        entries.append(file)
                    } else if childText.hasPrefix(DiskCache.temporaryPrefix) {
                        temporaries.append(file)
                    }
                }
            } else if status.isRegular, text.hasPrefix(DiskCache.temporaryPrefix) {
                temporaries.append(ScannedFile(path: path, size: status.size, modified: status.modified))
            }
        }
        return (entries, temporaries)
    }

    /// Lowercase hex digits only, as `Hash128.hex` writes them.
    private static func isHex(_ name: String, count: Int) -> Bool {
        let utf8 = name.utf8
        return utf8.count == count && utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
