import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// Stacks: a burst, or near-identical shots (`Bursts`), shown as one tile, its first photo with
/// the count ("[5]"), as the photo apps and Lightroom stack them. Tab opens a stack in place (its
/// photos after the first, "[2/5]"...) and closes it again, as Tab folds in outliners. The keys
/// that act on photos (ratings, labels, keywords, marks, the trash, moves, turns, `o`, `-o`)
/// act on all the photos of a closed stack. Looked for once the first screen is drawn, in a
/// folder of this machine; in one of more than `eagerLimit` photos, once the dates are read for
/// another reason (the date order, the days), since reading them all costs more than a glance.
extension GridController {
    static let eagerLimit = 20_000
    /// A folder this small has its bursts looked for at once, beside the first screen's
    /// pictures rather than after them: its dates and the few looks cost tens of milliseconds,
    /// and stacks found after the first screen move its tiles, which then go to the terminal
    /// twice (3-4 MB more for 39 camera photos; docs/benchmarks.md, the slow link again).
    static let earlyLimit = 1_000

    /// Whether the stacks are looked for with the first screen, not after it.
    var looksForStacksEarly: Bool {
        let count = gallery.listed?.count ?? gallery.filtering.unfiltered?.count ?? session.photos.count
        return gallery.reading == nil && count <= GridController.earlyLimit
    }

    /// After the first screen: the dates read (if not yet), then the bursts looked for.
    func startStacks() {
        guard gallery.stacks.enabled, gallery.readers.findStacks != nil, gallery.stacks.scan == nil else { return }
        // A folder still being read is not counted yet: the stacks wait for its whole list
        // (`finishReading`), or a library's first thousands would be read for dates.
        gallery.stacks.wanted = true
        guard gallery.reading == nil else { return }
        // Counted before the list is made: a library's list is its size again in memory, for nothing
        // when its dates are not all known.
        let count = gallery.listed?.count ?? gallery.filtering.unfiltered?.count ?? session.photos.count
        let eager = count <= GridController.eagerLimit
        guard eager || gallery.dates.known.count >= count else { return }
        let photos = gallery.allPhotos
        let missing = photos.contains { gallery.dates.known[$0.source] == nil }
        if !missing { lookForStacks(); return }
        guard eager, gallery.dates.reader == nil else { return }
        gallery.stacks.waitingForDates = true
        gallery.startReadingDates()
        if gallery.dates.reader == nil { gallery.stacks.waitingForDates = false }
    }

    /// The dates are known: the bursts among the photos shown (a raw file with its JPEG counts once).
    func lookForStacks() {
        guard gallery.stacks.enabled, let findStacks = gallery.readers.findStacks else { return }
        gallery.stacks.scan?.cancel()
        gallery.stacks.scan = findStacks(RawPairs.pair(gallery.allPhotos).0, gallery.dates.known)
    }

    /// The scan's groups, shown.
    func takeStacks() {
        guard let scan = gallery.stacks.scan, let groups = scan.groups else { return }
        gallery.stacks.scan = nil
        guard groups != gallery.stacks.groups else { return }
        gallery.stacks.groups = groups
        gallery.stacks.of = [:]
        for (number, group) in groups.enumerated() { for photo in group { gallery.stacks.of[photo] = number } }
        gallery.stacks.open = []
        showList(gallery.allPhotos)
        if !groups.isEmpty {
            let photos = groups.reduce(0) { $0 + $1.count }
            notice = "\(groups.count) stack\(groups.count == 1 ? "" : "s") of bursts (\(photos) photos; Tab opens one)"
        }
    }

    /// Tab: the focused photo's stack opened or closed, the focus staying on the photo.
    func toggleStack() {
        guard let focus = topScreen.currentPhoto(context) else { return }
        let source = session.table[focus].source
        guard let number = gallery.stacks.of[source] else { notice = "not in a stack"; return }
        let count = gallery.stacks.groups[number].count
        if gallery.stacks.open.remove(number) == nil {
            gallery.stacks.open.insert(number)
            notice = "stack of \(count) opened (Tab closes it)"
        } else {
            notice = "stack of \(count) closed"
        }
        let cover = gallery.stacks.open.contains(number) ? focus : session.table.id(of: gallery.stacks.groups[number][0])
        showList(gallery.allPhotos)
        // Closed: the focus on the stack's tile, whichever of its photos it was on.
        if let cover, gallery.photos.contains(cover) { grid.move(to: cover, context) }
        else if let shown = gallery.stacks.groups[number].compactMap({ session.table.id(of: $0) }).first(where: { gallery.photos.contains($0) }) {
            grid.move(to: shown, context)
        }
    }

    /// Photos as the keys act on them: a closed stack's tile stands for all its photos.
    func expandingStacks(_ ids: [PhotoID]) -> [PhotoID] {
        guard !gallery.stacks.groups.isEmpty else { return ids }
        var out: [PhotoID] = [], seen = Set<PhotoID>()
        for id in ids {
            let source = session.table[id].source
            let members = gallery.stacks.isClosed(source) ? gallery.stacks.group(of: source)!.compactMap { session.table.id(of: $0) } : [id]
            for member in members where seen.insert(member).inserted { out.append(member) }
        }
        return out
    }
}
