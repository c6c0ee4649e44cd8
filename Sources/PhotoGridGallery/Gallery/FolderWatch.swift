import PhotoGridSystem

/// A gallery folder watched while it is open (inotify), so that a photo copied into a day folder
/// appears without a key: every folder the scanner would enter is watched, folders made later
/// too, and what changed is told as folders to read again (`Change`), gathered until the
/// folder has been quiet a moment so that a card copied in is one change, not a thousand.
///
/// A file counts once it is written and closed or moved in: one being copied is not shown half
/// made (rsync and most copiers write a hidden name and rename it, which is one move in). Past
/// the user's watch limit (`fs.inotify.max_user_watches`) the rest is not watched and `notice`
/// says so; Ctrl-R still reads everything.
package final class FolderWatch: Sendable {
    /// A folder to read again, by its path below the gallery: its own photos (`whole` false, a
    /// file came or went) or everything below it (`whole`: the folder is new, or gone).
    package struct Change: Hashable, Sendable {
        package let folder: RawPath
        package let whole: Bool

        package init(folder: RawPath, whole: Bool) {
            self.folder = folder
            self.whole = whole
        }

        /// Whether a photo at this path below the gallery is in what is read again.
        package func covers(_ path: RawPath) -> Bool {
            if whole { return folder.bytes.isEmpty || FolderWatch.isBelow(path, folder) }
            return FolderWatch.folder(of: path) == folder
        }
    }

    private struct Shared {
        var changes: Set<Change> = []
        var notice: String?
    }

    private let shared = Locked(Shared())
    private let wake = Locked<(@Sendable () -> Void)?>(nil)
    private let loop: WatchLoop
    private let thread: JoinableThread?

    /// Watches `root` and the folders below it to `maxDepth`, as `FolderScanner` walks them
    /// (hidden ones only with `showHidden`), leaving out `skipping` (the cache, when it is inside
    /// the gallery), once `begin` is called; folders modified since `changedSince` are read again
    /// then. Nil where inotify cannot be had.
    package init?(root: RawPath, maxDepth: Int, showHidden: Bool, skipping: [RawPath] = [], quietMilliseconds: Int = 300,
                  changedSince: Int64? = nil) {
        guard let inotify = try? Inotify() else { return nil }
        let (shared, wake) = (self.shared, self.wake)
        loop = WatchLoop(inotify: inotify, root: root, maxDepth: maxDepth, showHidden: showHidden, skipping: Set(skipping),
                         quiet: quietMilliseconds, changedSince: changedSince) { changes, notice in
            shared.withLock { state in
                state.changes.formUnion(changes)
                if let notice { state.notice = notice }
            }
            if !changes.isEmpty || notice != nil { wake.withLock { $0 }?() }
        }
        guard let thread = JoinableThread({ [loop] in loop.run() }) else { return nil }
        self.thread = thread
    }

    deinit { stop() }

    /// Runs `body` (on the watch's thread) whenever changes are ready to `take`, or a notice.
    package func onChange(_ body: @escaping @Sendable () -> Void) { wake.withLock { $0 = body } }

    /// Walks the folders and starts watching them (on the watch's thread: this returns at once).
    package func begin() { loop.begin() }

    /// Ends the watch and waits for its thread.
    package func stop() {
        loop.stop()
        thread?.join()
    }

    /// The folders to read again since the last look, fewest first: a folder read whole covers
    /// every change below it.
    package func take() -> [Change] {
        let all = shared.withLock { state in defer { state.changes = [] }; return state.changes }
        let wholes = all.filter(\.whole).map(\.folder)
        return all.filter { change in
            !wholes.contains { $0 != change.folder && ($0.bytes.isEmpty || FolderWatch.isBelow(change.folder, $0)) }
                && !(change.whole == false && wholes.contains(change.folder))
        }
        .sorted { $0.folder < $1.folder }
    }

    /// Said once: folders left unwatched, or the gallery folder itself gone.
    package func takeNotice() -> String? { shared.withLock { state in defer { state.notice = nil }; return state.notice } }

    /// Whether the watch has walked every folder it started with (for tests).
    package var isReady: Bool { loop.ready.withLock { $0 } }

    /// `path` lies below `folder` (both below the gallery, `folder` not empty).
    static func isBelow(_ path: RawPath, _ folder: RawPath) -> Bool {
        path.bytes.count > folder.bytes.count && path.bytes.starts(with: folder.bytes)
            && path.bytes[folder.bytes.count] == UInt8(ascii: "/")
    }

    /// The folder a photo's path below the gallery is in (empty: the gallery folder itself).
    static func folder(of path: RawPath) -> RawPath {
        guard let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) else { return RawPath([]) }
        return RawPath(Array(path.bytes[..<slash]))
    }
}

/// The watch's own thread: the inotify descriptor, a watch a folder, and the changes gathered
/// until the folders are quiet. Everything here but `stopping`, `ready` and `wakeUp` belongs to
/// that thread.
private final class WatchLoop: @unchecked Sendable {
    private struct Watched { let path: RawPath; let relative: RawPath; let depth: Int }
    private struct FileID: Hashable { let device: UInt64; let inode: UInt64 }

    let inotify: Inotify
    let root: RawPath
    let maxDepth: Int
    let showHidden: Bool
    let skipping: Set<RawPath>
    let quiet: Int
    let publish: @Sendable (Set<FolderWatch.Change>, String?) -> Void
    let stopping = Locked(false)
    let ready = Locked(false)
    let begun = Locked(false)
    /// Folders changed since this time (wall nanoseconds) when first walked are read again: what
    /// came between the gallery's reading and the watch.
    let changedSince: Int64?
    let wakeUp: (read: FileDescriptor, write: FileDescriptor)?

    private var watches: [Int32: Watched] = [:]
    private var visited: Set<FileID> = []
    private var full = false
    private var unwatched = 0, toldUnwatched = 0
    /// Changes not told yet.
    private var pending: Set<FolderWatch.Change> = []

    init(inotify: Inotify, root: RawPath, maxDepth: Int, showHidden: Bool, skipping: Set<RawPath>, quiet: Int,
         changedSince: Int64?, publish: @escaping @Sendable (Set<FolderWatch.Change>, String?) -> Void) {
        self.inotify = inotify
        self.root = root
        self.maxDepth = maxDepth
        self.showHidden = showHidden
        self.skipping = skipping
        self.quiet = quiet
        self.changedSince = changedSince
        self.publish = publish
        wakeUp = try? FileDescriptor.pipe(nonBlocking: true)
    }

    deinit {
        try? wakeUp?.read.close()
        try? wakeUp?.write.close()
    }

    func stop() {
        stopping.withLock { $0 = true }
        wakeUp?.write.poke()
    }

    /// Begins: the folders walked and watched (after the first screen, so the walk takes nothing
    /// from it).
    func begin() {
        begun.withLock { $0 = true }
        wakeUp?.write.poke()
    }

    func run() {
        while !begun.withLock({ $0 }) {
            guard !stopping.withLock({ $0 }) else { return }
            if let wakeUp { _ = Poll.wait([(wakeUp.read, .readable)], milliseconds: -1); wakeUp.read.drain() } else { return }
        }
        add(path: root, relative: RawPath([]), depth: 0)
        ready.withLock { $0 = true }
        if unwatched > 0 {
            publish([], unwatchedNotice)
            toldUnwatched = unwatched
        }
        let clock = SystemClock()
        var firstAt = clock.now(), lastAt = firstAt
        while !stopping.withLock({ $0 }) {
            // Quiet for `quiet` ms, or changes waiting for ten times that: told now.
            var wait: Int32 = -1
            if !pending.isEmpty {
                let now = clock.now()
                let due = min(lastAt + quiet, firstAt + 10 * quiet)
                if now >= due {
                    publish(pending, nil)
                    pending = []
                    continue
                }
                wait = Int32(due - now)
            }
            var watched: [(FileDescriptor, Poll.Events)] = [(inotify.descriptor, .readable)]
            if let wakeUp { watched.append((wakeUp.read, .readable)) }
            guard Poll.wait(watched, milliseconds: wait) != nil else {
                if !SystemError.lastWasInterrupted { SystemClock.sleep(milliseconds: 50) }
                continue
            }
            wakeUp?.read.drain()
            let before = pending.count
            take(inotify.read())
            if pending.count > before {
                let now = clock.now()
                if before == 0 { firstAt = now }
                lastAt = now
            }
        }
    }

    /// The changes the events mean; folders that came are watched at once, so that photos put in
    /// them straight after are seen too.
    private func take(_ events: [Inotify.Event]) {
        var notice: String?
        for event in events {
            if event.has(Inotify.overflow) {
                pending.insert(FolderWatch.Change(folder: RawPath([]), whole: true))
                continue
            }
            guard let folder = watches[event.watch] else { continue }
            if event.has(Inotify.ignored) {
                watches[event.watch] = nil
                continue
            }
            if event.name.isEmpty {
                if event.has(Inotify.selfGone) && folder.depth == 0 {
                    notice = "\(root): the folder is gone; what was read stays shown"
                }
                continue
            }
            if !showHidden && event.name.first == UInt8(ascii: ".") { continue }
            let path = folder.path.appending(event.name), relative = folder.relative.appending(event.name)
            if event.isFolder {
                guard !skipping.contains(path) else { continue }
                if event.has(Inotify.created | Inotify.movedIn) {
                    add(path: path, relative: relative, depth: folder.depth + 1)
                    pending.insert(FolderWatch.Change(folder: relative, whole: true))
                } else if event.has(Inotify.deleted | Inotify.movedOut) {
                    pending.insert(FolderWatch.Change(folder: relative, whole: true))
                }
                continue
            }
            // A file is counted once written and closed; made by a link, once it is made.
            if event.has(Inotify.created) {
                guard let kind = path.linkStatus()?.kind else { continue }
                if kind == .symbolicLink, path.status()?.isDirectory == true {
                    add(path: path, relative: relative, depth: folder.depth + 1)
                    pending.insert(FolderWatch.Change(folder: relative, whole: true))
                    continue
                }
                guard kind == .symbolicLink else { continue }
            }
            pending.insert(FolderWatch.Change(folder: folder.relative, whole: false))
        }
        if unwatched > toldUnwatched && notice == nil {
            notice = unwatchedNotice
            toldUnwatched = unwatched
        }
        if let notice { publish([], notice) }
    }

    private var unwatchedNotice: String {
        "\(unwatched) folders not watched (fs.inotify.max_user_watches reached): Ctrl-R reads them again"
    }

    /// Watches a folder and the folders below it, as the scanner enters them: to `maxDepth`, each
    /// once (links followed, never round a loop), hidden ones only when shown.
    private func add(path: RawPath, relative: RawPath, depth: Int) {
        var stack = [(path, relative, depth)]
        while let (path, relative, depth) = stack.popLast() {
            guard depth <= maxDepth, let info = path.status(), info.isDirectory,
                  visited.insert(FileID(device: info.device, inode: info.inode)).inserted else { continue }
            if let changedSince, info.modified >= changedSince {
                pending.insert(FolderWatch.Change(folder: relative, whole: false))
            }
            if full { unwatched += 1; continue }
            do throws(SystemError) {
                watches[try inotify.watch(path)] = Watched(path: path, relative: relative, depth: depth)
            } catch {
                // A folder that cannot be watched for another reason (no permission) is one the
                // scanner cannot read either, and says so itself.
                if error.isFull {
                    full = true
                    unwatched += 1
                }
                continue
            }
            guard depth < maxDepth else { continue }
            for (name, status) in DirectoryEntry.statuses(in: path) where showHidden || name.first != UInt8(ascii: ".") {
                let child = path.appending(name)
                guard status.isDirectory || status.kind == .symbolicLink, !skipping.contains(child) else { continue }
                stack.append((child, relative.appending(name), depth + 1))
            }
        }
    }
}
