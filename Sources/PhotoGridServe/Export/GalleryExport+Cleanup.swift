import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension GalleryExport {
    /// Deletes from OUT/originals and OUT/renditions every file the manifest no longer names (a
    /// photo deleted or renamed since the last export, a size no longer made, a temporary file of
    /// an export cut short), then the folders left empty. Nothing outside those two folders is
    /// touched, and links are removed, never followed. Returns how many files went.
    func removeStale(keeping entries: [GalleryIndex.Entry]) -> Int {
        var wanted = Set<[UInt8]>()
        for entry in entries {
            wanted.insert(originalPath(entry).bytes)
            if !entry.photo.format.isVideo { for size in sizes { wanted.insert(renditionPath(entry, size: size).bytes) } }
        }
        var removed = 0
        for top in ["originals", "renditions"] {
            removed += sweep(output.appending(Array(top.utf8)), keeping: wanted, depth: 0)
        }
        return removed
    }

    /// The files below `folder` not in `wanted`, removed; `folder` too if it ends up empty (but
    /// never the two top folders, which the next export fills again).
    private func sweep(_ folder: RawPath, keeping wanted: Set<[UInt8]>, depth: Int) -> Int {
        // Ids are paths below the photos' folder, which the scanner reads 32 levels deep at most.
        guard depth < 64 else { return 0 }
        var removed = 0
        for (name, status) in DirectoryEntry.statuses(in: folder) {
            let path = folder.appending(name)
            if status.isDirectory {
                removed += sweep(path, keeping: wanted, depth: depth + 1)
                path.removeDirectory()                     // only when empty
            } else if !wanted.contains(path.bytes) {
                if path.remove() { removed += 1 }
            }
        }
        return removed
    }
}
