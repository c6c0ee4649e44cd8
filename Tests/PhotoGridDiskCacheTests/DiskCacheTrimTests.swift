import Dispatch
import Glibc
import Testing
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// What the writer threads saw.
final class Tally: Sendable {
    let counts = Locked<(hits: Int, misses: Int, wrong: Int)>((0, 0, 0))
}

@Suite struct DiskCacheTrimTests {
    typealias F = DiskCacheFixture

    /// Each entry's file: 32 header bytes, the key (five length-prefixed fields: "file", the path
    /// "/photos/N.jpg", size, mtime, the variant "t64"), 900 payload bytes; one more from key 10,
    /// whose path is a digit longer.
    static let entrySize = 32 + (4 + 4) + (4 + 13) + (4 + 8) + (4 + 8) + (4 + 3) + 900

    @Test func trimmingRemovesTheLeastRecentlyUsedFirst() {
        let f = F("disk-lru")
        defer { f.remove() }
        let cache = f.cache(limit: 10_000)
        for n in 0..<10 { cache.write(F.key(n), F.payload(n)) }
        #expect(cache.totalBytes == 10 * Self.entrySize)            // 9,880: under the limit, all kept
        // Written in the order 0...9, long ago; then 0, 1 and 2 are read again.
        for n in 0..<10 { F.setTime(cache.entryPath(for: F.key(n)), seconds: 1_000_000 + n) }
        for n in 0..<3 { #expect(F.holds(cache, n)) }
        // The eleventh entry passes the limit; trimming to 8,000 bytes removes the three oldest.
        cache.write(F.key(10), F.payload(10))
        #expect(cache.totalBytes == 7 * Self.entrySize + (Self.entrySize + 1))
        for n in [3, 4, 5] { #expect(F.misses(cache, n), "entry \(n)") }
        for n in [0, 1, 2, 6, 7, 8, 9, 10] { #expect(F.holds(cache, n), "entry \(n)") }
    }

    @Test func manyWritesStayUnderTheLimit() {
        let f = F("disk-limit")
        defer { f.remove() }
        let cache = f.cache(limit: 20_000)
        for n in 0..<200 {
            cache.write(F.key(n), F.payload(n))
            #expect(cache.totalBytes <= 20_000)
        }
        // The newest survive.
        #expect(F.holds(cache, 199))
        #expect(F.misses(cache, 0))
        // An entry larger than the whole limit is not kept, and pushes nothing out.
        let before = cache.totalBytes
        cache.write(F.key(500), F.payload(500, count: 30_000))
        #expect(F.misses(cache, 500) && cache.totalBytes == before)
    }

    @Test func aNewInstanceCountsWhatIsAlreadyThere() {
        let f = F("disk-lazy")
        defer { f.remove() }
        let first = f.cache(limit: 10_000)
        for n in 0..<10 { first.write(F.key(n), F.payload(n)) }
        // Another process starts: its first write finds the 9,880 bytes already there and trims.
        let second = f.cache(limit: 10_000)
        second.write(F.key(10), F.payload(10))
        #expect(second.totalBytes <= 8_000)
        #expect(F.holds(second, 10))
    }

    @Test func trimmingClearsStrayTemporariesButNotFreshOnesOrStrangers() {
        let f = F("disk-strays")
        defer { f.remove() }
        let cache = f.cache()
        cache.write(F.key(1), F.payload(1))
        let folder = String(cache.entryPath(for: F.key(1)).dropLast(33))
        let stray = folder + "/.tmp-1-1-dead", fresh = folder + "/.tmp-2-1-busy", rootStray = f.directory + "/.tmp-3-1-0"
        let strangers = [f.directory + "/notes.txt", folder + "/notes.txt", folder + "/" + String(repeating: "z", count: 32)]
        for path in [stray, fresh, rootStray] + strangers { TestImages.write([1, 2, 3], to: path) }
        F.setTime(stray, seconds: 1_000_000)
        F.setTime(rootStray, seconds: 1_000_000)
        #expect(cache.scan().temporaries.count == 3)
        cache.trim()
        #expect(!F.exists(stray) && !F.exists(rootStray))
        #expect(F.exists(fresh))                                    // another process may be writing it
        #expect(strangers.allSatisfy(F.exists))                     // not ours: neither counted nor touched
        #expect(cache.totalBytes == F.bytes(of: cache.entryPath(for: F.key(1)))!.count)
        #expect(F.holds(cache, 1))
    }

    @Test func entriesDeletedByAnotherProcessAreNoError() {
        let f = F("disk-vanish")
        defer { f.remove() }
        let cache = f.cache(limit: 10_000)
        for n in 0..<10 { cache.write(F.key(n), F.payload(n)) }
        TestImages.remove(f.directory)                              // everything gone behind its back
        cache.trim()
        #expect(cache.totalBytes == 0)
        cache.write(F.key(1), F.payload(1))                         // the directory is made again
        #expect(F.holds(cache, 1))
        #expect(F.mode(f.directory) == 0o700)
    }

    /// A payload that says which key, writer and round it belongs to, so that a reader can tell
    /// a whole one from a partial, mixed or misplaced one. Lengths vary up to 20 kB.
    static func payload(key: Int, writer: Int, round: Int) -> [UInt8] {
        let length = 600 + (key * 977 + writer * 131 + round * 17) % 20_000
        var bytes = [UInt8(key), UInt8(writer), UInt8(round & 0xff), UInt8(round >> 8)]
        bytes.reserveCapacity(4 + length)
        for i in 0..<length { bytes.append(UInt8(truncatingIfNeeded: i &* (key + 1) &+ writer &+ round)) }
        return bytes
    }

    static func isWhole(_ p: [UInt8], key: Int) -> Bool {
        guard p.count >= 4, p[0] == UInt8(key) else { return false }
        return p == payload(key: key, writer: Int(p[1]), round: Int(p[2]) | Int(p[3]) << 8)
    }

    /// Eight threads on two instances (two processes, as far as the cache can tell) write and
    /// read twelve keys at once; with a small limit, trimming runs all the while too.
    @Test(arguments: [1 << 30, 100_000]) func concurrentWritersNeverShowAPartialPayload(limit: Int) {
        let f = F("disk-threads")
        defer { f.remove() }
        let caches = [f.cache(limit: limit), f.cache(limit: limit)]
        // Every key is there from the start, so a read can miss only where trimming removed it.
        for key in 0..<12 { caches[0].write(F.key(key), Self.payload(key: key, writer: 99, round: 0)) }
        let tally = Tally()
        let group = DispatchGroup()
        for writer in 0..<8 {
            // A serial queue each: the global pool would run only as many threads as cores.
            DispatchQueue(label: "disk-writer-\(writer)").async(group: group) {
                let cache = caches[writer % 2]
                for round in 0..<150 {
                    let key = (writer + round) % 12
                    cache.write(F.key(key), Self.payload(key: key, writer: writer, round: round))
                    let other = (key * 5 + round) % 12
                    let got = cache.read(F.key(other))
                    tally.counts.withLock { c in
                        if let got { if Self.isWhole(got, key: other) { c.hits += 1 } else { c.wrong += 1 } } else { c.misses += 1 }
                    }
                }
            }
        }
        group.wait()
        let counts = tally.counts.withLock { $0 }
        #expect(counts.wrong == 0)
        #expect(counts.hits > 0)
        if limit > 1 << 20 { #expect(counts.misses == 0) }          // a name is never without a whole file
        #expect(caches[0].scan().temporaries.isEmpty)               // every temporary file was renamed or removed
        caches[0].trim()
        #expect(caches[0].totalBytes <= limit * 8 / 10)
        for key in 0..<12 {
            if let got = caches[1].read(F.key(key)) { #expect(Self.isWhole(got, key: key)) }
        }
    }
}
