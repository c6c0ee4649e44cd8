import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// A byte-budgeted least-recently-used cache that answers synchronously, so that a hit paints in
/// the same frame. Lock-guarded rather than an actor: the event loop reads it directly and the
/// workers write to it.
///
/// Keys can be *protected*: what the screen and its planned prefetches need. Eviction takes
/// unprotected entries first, oldest first, so making something less wanted never pushes out
/// something more wanted (which would be made again, and push out the next: a livelock when the
/// budget is small). Protected entries go only when nothing else is left; the owner keeps their
/// total within the limit (`TilePipeline`'s plan).
package final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var older: Key?
        var newer: Key?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var oldest: Key?
        var newest: Key?
        var totalCost = 0
        var peakCost = 0
        var limit: Int
        var protected: Set<Key> = []
        /// Bytes lent to work in progress outside the cache (decodes): what the cache keeps shrinks by as much.
        var reserved = 0
    }

    private let state: Locked<State>

    /// `limit` in bytes. An entry costing more than the whole limit is not kept.
    package init(limit: Int) {
        state = Locked(State(limit: limit))
    }

    package var totalCost: Int { state.withLock { $0.totalCost } }
    /// The most the entries ever cost at once (after eviction): what the soak checks the budget by.
    package var peakCost: Int { state.withLock { $0.peakCost } }
    package var count: Int { state.withLock { $0.entries.count } }
    package var limit: Int { state.withLock { $0.limit } }

    /// The value, which becomes the most recently used.
    package func value(for key: Key) -> Value? {
        state.withLock { s in
            guard let entry = s.entries[key] else { return nil }
            MemoryCache.unlink(key, &s)
            MemoryCache.linkNewest(key, &s)
            return entry.value
        }
    }

    /// Whether the key is held, without touching its age.
    package func contains(_ key: Key) -> Bool { state.withLock { $0.entries[key] != nil } }

    /// What the entry costs, if held, without touching its age.
    package func cost(of key: Key) -> Int? { state.withLock { $0.entries[key]?.cost } }

    /// Replaces the set of keys that are evicted only when nothing unprotected is left.
    package func protect(_ keys: Set<Key>) { state.withLock { $0.protected = keys } }

    /// Lends `bytes` of the limit to work outside the cache (decodes running) until called again:
    /// unprotected entries over what is left go at once; protected ones stay.
    package func setReserved(_ bytes: Int) {
        state.withLock { s in
            s.reserved = max(0, bytes)
            MemoryCache.evict(&s, downTo: max(0, s.limit - s.reserved), sparing: nil, protectedToo: false)
        }
    }

    /// A new limit (memory pressure halves it); entries over it go at once, unprotected first.
    package func setLimit(_ limit: Int) {
        state.withLock { s in
            s.limit = max(0, limit)
            MemoryCache.evict(&s, downTo: s.limit, sparing: nil)
        }
    }

    package func set(_ value: Value, for key: Key, cost: Int) {
        state.withLock { s in
            if s.entries[key] != nil { MemoryCache.remove(key, &s) }
            guard cost <= s.limit else { return }
            s.entries[key] = Entry(value: value, cost: cost)
            s.totalCost += cost
            MemoryCache.linkNewest(key, &s)
            MemoryCache.evict(&s, downTo: s.limit, sparing: key)
            if s.reserved > 0 { MemoryCache.evict(&s, downTo: max(0, s.limit - s.reserved), sparing: nil, protectedToo: false) }
            s.peakCost = max(s.peakCost, s.totalCost)
        }
    }

    package func removeValue(for key: Key) {
        state.withLock { s in if s.entries[key] != nil { MemoryCache.remove(key, &s) } }
    }

    /// Drops the least recently used entries until at most `fraction` of the current cost is left.
    package func trim(toFraction fraction: Double) {
        state.withLock { s in
            MemoryCache.evict(&s, downTo: Int(Double(s.totalCost) * fraction), sparing: nil)
        }
    }

    /// The keys held that `match`, without touching their recency.
    package func keys(where matches: (Key) -> Bool) -> [Key] {
        state.withLock { s in s.entries.keys.filter(matches) }
    }

    /// Drops every entry whose key `matches`.
    package func removeAll(where matches: (Key) -> Bool) {
        state.withLock { s in
            for key in s.entries.keys where matches(key) { MemoryCache.remove(key, &s) }
        }
    }

    package func removeAll() {
        state.withLock { s in s = State(peakCost: s.peakCost, limit: s.limit, protected: s.protected, reserved: s.reserved) }
    }

    /// Removes entries until the total is at most `target`: unprotected ones oldest first, then
    /// `sparing` (the entry just stored) if it is unprotected, so that something unwanted never
    /// displaces what is wanted; protected ones, oldest first, only if that is still not enough.
    private static func evict(_ s: inout State, downTo target: Int, sparing: Key?, protectedToo: Bool = true) {
        var key = s.oldest
        while s.totalCost > target, let current = key {
            key = s.entries[current]?.newer
            if current != sparing && !s.protected.contains(current) { remove(current, &s) }
        }
        if s.totalCost > target, let sparing, !s.protected.contains(sparing) { remove(sparing, &s) }
        while protectedToo, s.totalCost > target, let oldest = s.oldest { remove(oldest, &s) }
    }

    private static func remove(_ key: Key, _ s: inout State) {
        unlink(key, &s)
        if let entry = s.entries.removeValue(forKey: key) { s.totalCost -= entry.cost }
    }

    private static func unlink(_ key: Key, _ s: inout State) {
        guard let entry = s.entries[key] else { return }
        if let older = entry.older { s.entries[older]?.newer = entry.newer } else { s.oldest = entry.newer }
        if let newer = entry.newer { s.entries[newer]?.older = entry.older } else { s.newest = entry.older }
        s.entries[key]?.older = nil
        s.entries[key]?.newer = nil
    }

    private static func linkNewest(_ key: Key, _ s: inout State) {
        s.entries[key]?.older = s.newest
        s.entries[key]?.newer = nil
        if let newest = s.newest { s.entries[newest]?.newer = key } else { s.oldest = key }
        s.newest = key
    }
}
