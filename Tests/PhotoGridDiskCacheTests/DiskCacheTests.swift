import Glibc
import Testing
@testable import PhotoGridDiskCache
@testable import PhotoGridMetadata
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// A scratch cache directory and keys for photos that need not exist.
struct DiskCacheFixture {
    let root: String
    let directory: String

    init(_ name: String) {
        root = TestImages.scratchFolder(name)
        directory = root + "/cache/photogrid"         // two levels that do not exist yet
    }

    func cache(limit: Int = 1 << 20) -> DiskCache { DiskCache(directory: directory, limitBytes: limit)! }

    static func key(_ n: Int, variant: String = "t64") -> DiskCache.FileKey {
        DiskCache.FileKey(path: RawPath("/photos/\(n).jpg"), size: 1_000 + n, modified: 1_700_000_000_123_456_789 + Int64(n),
                      variant: variant)
    }

    static func payload(_ n: Int, count: Int = 900) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n &* 7) }
    }

    /// Whether `cache` holds key n's own payload; a Bool, so that a failure does not print kilobytes.
    static func holds(_ cache: DiskCache, _ n: Int) -> Bool { cache.read(key(n)) == payload(n) }

    /// Whether key n misses in `cache`.
    static func misses(_ cache: DiskCache, _ n: Int) -> Bool { cache.read(key(n)) == nil }

    static func bytes(of path: String) -> [UInt8]? {
        try? FileReader.read(RawPath(path), limit: .max)
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func mode(_ path: String) -> UInt32 {
        var info = stat()
        stat(path, &info)
        return UInt32(info.st_mode) & 0o777
    }

    /// Sets a file's mtime (and atime) to `seconds` since the epoch.
    static func setTime(_ path: String, seconds: Int) {
        let times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        precondition(utimensat(AT_FDCWD, path, times, 0) == 0, "utimensat \(path)")
    }

    func remove() { TestImages.remove(root) }
}

@Suite struct DiskCacheTests {
    typealias F = DiskCacheFixture

    @Test func roundTripsInAPrivateDirectory() {
        let f = F("disk-roundtrip")
        defer { f.remove() }
        let cache = f.cache()
        #expect(F.misses(cache, 1))
        cache.write(F.key(1), F.payload(1))
        cache.write(F.key(2), [])                                   // an empty payload is a payload
        #expect(F.holds(cache, 1))
        #expect(cache.read(F.key(2)) == [])
        // The directory and its parents are private, and so is each entry.
        #expect(F.mode(f.root + "/cache") == 0o700 && F.mode(f.directory) == 0o700)
        let path = cache.entryPath(for: F.key(1))
        #expect(path.hasPrefix(f.directory + "/"))
        #expect(F.mode(path) == 0o600)
        #expect(F.mode(String(path.dropLast(33))) == 0o700)                      // its subfolder
        #expect(cache.scan().entries.count == 2 && cache.scan().temporaries.isEmpty)
        #expect(cache.totalBytes == F.bytes(of: path)!.count + F.bytes(of: cache.entryPath(for: F.key(2)))!.count)
        // A new write replaces the old payload.
        cache.write(F.key(1), [1, 2, 3])
        #expect(cache.read(F.key(1)) == [1, 2, 3])
    }

    /// Unchecked (a cache read before it is written to): nothing is made until the first write,
    /// which makes the directory and its parents as private as a checked cache's.
    @Test func anUncheckedCacheIsMadeByItsFirstWrite() {
        let f = F("disk-unchecked")
        defer { f.remove() }
        let cache = DiskCache(directory: f.directory, limitBytes: 1 << 20, checked: false)!
        #expect(!F.exists(f.root + "/cache"))
        #expect(F.misses(cache, 1))
        #expect(cache.scan().entries.isEmpty)
        cache.write(F.key(1), F.payload(1))
        #expect(F.holds(cache, 1))
        #expect(F.mode(f.root + "/cache") == 0o700 && F.mode(f.directory) == 0o700)
        #expect(F.mode(cache.entryPath(for: F.key(1))) == 0o600)
        // Where nothing can be made (under a file), it only misses.
        let blocked = DiskCache(directory: cache.entryPath(for: F.key(1)) + "/cache", limitBytes: 1 << 20, checked: false)!
        blocked.write(F.key(2), F.payload(2))
        #expect(F.misses(blocked, 2))
        #expect(DiskCache(directory: cache.entryPath(for: F.key(1)) + "/cache", limitBytes: 1 << 20) == nil)
    }

    @Test func anyChangeToTheKeyMisses() {
        let f = F("disk-keys")
        defer { f.remove() }
        let cache = f.cache()
        let key = F.key(1)
        cache.write(key, F.payload(1))
        var other = key
        other.size += 1
        #expect(cache.read(other) == nil)
        other = key
        other.modified += 1                                         // one nanosecond later
        #expect(cache.read(other) == nil)
        other = key
        other.variant = "t512"
        #expect(cache.read(other) == nil)
        other = key
        other.path = RawPath("/photos/1.jpeg")
        #expect(cache.read(other) == nil)
        #expect(cache.read(key) == F.payload(1))
    }

    /// Each way a file can be damaged, applied to a fresh entry's bytes.
    static let damages: [(String, @Sendable ([UInt8]) -> [UInt8])] = [
        ("empty", { _ in [] }),
        ("cut in the header", { Array($0.prefix(30)) }),
        ("cut in the payload", { Array($0.dropLast(1)) }),
        ("bytes added", { $0 + [0] }),
        ("magic", { var b = $0; b[0] ^= 0x20; return b }),
        ("version", { var b = $0; b[4] ^= 0x40; return b }),
        ("photo size", { var b = $0; b[8] ^= 1; return b }),
        ("mtime", { var b = $0; b[16] ^= 1; return b }),
        ("path length", { var b = $0; b[24] ^= 1; return b }),
        ("payload length", { var b = $0; b[32] ^= 1; return b }),
        ("payload length overflowing", { var b = $0; for i in 32..<40 { b[i] = 0xff }; return b }),
        ("path byte", { var b = $0; b[50] ^= 1; return b }),
        ("payload byte", { var b = $0; b[b.count - 10] ^= 0x80; return b }),
        ("garbage", { b in (0..<b.count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) } }),
    ]

    @Test(arguments: 0..<damages.count) func aDamagedEntryMissesAndIsRemoved(_ which: Int) {
        let f = F("disk-damage")
        defer { f.remove() }
        let cache = f.cache()
        let key = F.key(3)
        cache.write(key, F.payload(3))
        let path = cache.entryPath(for: key)
        let damaged = DiskCacheTests.damages[which].1(F.bytes(of: path)!)
        TestImages.write(damaged, to: path)
        #expect(cache.read(key) == nil, "\(DiskCacheTests.damages[which].0)")
        #expect(!F.exists(path), "\(DiskCacheTests.damages[which].0)")
        cache.write(key, F.payload(3))                              // and the entry can be written again
        #expect(cache.read(key) == F.payload(3))
    }

    @Test func aFileUnderTheRightNameHoldingAnotherKeyMisses() {
        let f = F("disk-collision")
        defer { f.remove() }
        let cache = f.cache()
        cache.write(F.key(1), F.payload(1))
        // As if key 2 hashed to the same name as key 1: its file holds key 1's header.
        let path2 = cache.entryPath(for: F.key(2))
        #expect(DiskCache.makeDirectories(String(path2.dropLast(33))))
        TestImages.write(F.bytes(of: cache.entryPath(for: F.key(1)))!, to: path2)
        #expect(F.misses(cache, 2))
        #expect(!F.exists(path2))
        #expect(F.holds(cache, 1))
    }

    @Test func twoInstancesShareOneDirectory() {
        let f = F("disk-two")
        defer { f.remove() }
        let a = f.cache(), b = f.cache()                            // two processes, as far as the cache can tell
        a.write(F.key(1), F.payload(1))
        #expect(b.read(F.key(1)) == F.payload(1))
        b.write(F.key(1), [9, 9])
        #expect(a.read(F.key(1)) == [9, 9])
        b.write(F.key(2), F.payload(2))
        #expect(a.read(F.key(2)) == F.payload(2))
    }

    @Test func aReadMarksTheEntryAsJustUsed() {
        let f = F("disk-touch")
        defer { f.remove() }
        let cache = f.cache()
        cache.write(F.key(1), F.payload(1))
        let path = cache.entryPath(for: F.key(1))
        F.setTime(path, seconds: 1_000_000)
        #expect(cache.read(F.key(1)) != nil)
        let entry = cache.scan().entries.first { $0.path == RawPath(path) }!
        #expect(abs(entry.modified - SystemClock().wallNanoseconds()) < 60 * 1_000_000_000)
    }

    @Test func fileNamesAreSpreadAndUnambiguous() {
        var names = Set<String>()
        var folders = Set<Substring>()
        for n in 0..<4_096 {
            let name = F.key(n).hashName
            #expect(name.count == 32 && name.allSatisfy { "0123456789abcdef".contains($0) })
            names.insert(name)
            folders.insert(name.prefix(2))
        }
        #expect(names.count == 4_096)
        #expect(folders.count >= 250)                               // 256 expected; 4,096 keys miss one rarely
        // A length goes before each variable field, so moving a byte across the border changes the name.
        let a = DiskCache.FileKey(path: RawPath("/p/ab"), size: 1, modified: 1, variant: "c")
        let b = DiskCache.FileKey(path: RawPath("/p/a"), size: 1, modified: 1, variant: "bc")
        #expect(a.hashName != b.hashName)
        #expect(a.hashName == DiskCache.FileKey(path: RawPath("/p/ab"), size: 1, modified: 1, variant: "c").hashName)
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]) == "/x/cache/photogrid")
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache/", "HOME": "/home/u"]) == "/x/cache/photogrid")
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "rel/cache", "HOME": "/home/u"]) == "/home/u/.cache/photogrid")
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "", "HOME": "/home/u"]) == "/home/u/.cache/photogrid")
        #expect(DiskCache.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.cache/photogrid")
        #expect(DiskCache.defaultDirectory(environment: ["HOME": "/"]) == "/.cache/photogrid")
        #expect(DiskCache.defaultDirectory(environment: ["HOME": ""]) == nil)
        #expect(DiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "rel", "HOME": "also-rel"]) == nil)
        #expect(DiskCache.defaultDirectory(environment: [:]) == nil)
    }

    @Test func noCacheWhereNothingCanBeWritten() {
        let f = F("disk-unwritable")
        defer { f.remove() }
        #expect(DiskCache(directory: "/proc/photogrid-test/cache", limitBytes: 1 << 20) == nil)
        #expect(DiskCache(directory: "/proc/self", limitBytes: 1 << 20) == nil)    // a folder, not writable
        TestImages.write([1], to: f.root + "/file")
        #expect(DiskCache(directory: f.root + "/file", limitBytes: 1 << 20) == nil)
        #expect(DiskCache(directory: f.root + "/file/below", limitBytes: 1 << 20) == nil)
        #expect(DiskCache(directory: f.root + "/fine", limitBytes: 0) == nil)
        #expect(DiskCache(directory: "", limitBytes: 1 << 20) == nil)
        // Mode bits stop everyone but root, who is stopped only by a read-only mount.
        if geteuid() != 0 {
            mkdir(f.root + "/locked", 0o500)
            #expect(DiskCache(directory: f.root + "/locked", limitBytes: 1 << 20) == nil)
            #expect(DiskCache(directory: f.root + "/locked/below", limitBytes: 1 << 20) == nil)
        }
        #expect(DiskCache(directory: f.root + "/fine", limitBytes: 1 << 20) != nil)
    }

    @Test func theKeyOfAPhotoFollowsItsFile() {
        let f = F("disk-stat")
        defer { f.remove() }
        let photo = f.root + "/a.jpg"
        TestImages.write([1, 2, 3, 4], to: photo)
        F.setTime(photo, seconds: 1_600_000_000)
        let first = DiskCache.FileKey(file: RawPath(photo), variant: "t64")!
        #expect(first.size == 4 && first.modified == 1_600_000_000 * 1_000_000_000 && first.variant == "t64")
        #expect(first.path == RawPath(photo))
        // The same size, rewritten a moment later: the mtime tells them apart.
        TestImages.write([5, 6, 7, 8], to: photo)
        let times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 1_000)]
        utimensat(AT_FDCWD, photo, times, 0)
        let second = DiskCache.FileKey(file: RawPath(photo), variant: "t64")!
        #expect(second != first && second.modified == first.modified + 1_000 && second.hashName != first.hashName)
        // The same mtime, another size.
        TestImages.write([5, 6, 7], to: photo)
        utimensat(AT_FDCWD, photo, times, 0)
        let third = DiskCache.FileKey(file: RawPath(photo), variant: "t64")!
        #expect(third.size == 3 && third != second)
        #expect(DiskCache.FileKey(file: RawPath(f.root + "/missing.jpg"), variant: "t64") == nil)
        #expect(DiskCache.FileKey(file: RawPath(f.root), variant: "t64") == nil)                  // a folder
        // And what was cached for the old file misses.
        let cache = DiskCache(directory: f.root + "/cache", limitBytes: 1 << 20)!
        cache.write(first, [1])
        #expect(cache.read(DiskCache.FileKey(file: RawPath(photo), variant: "t64")!) == nil)
        #expect(cache.read(first) == [1])
    }

    /// Each kind of entry has its own key type, and the kind's name begins its bytes: the same
    /// path as a file's key and as another kind's is two entries, never one.
    @Test func keysOfDifferentKindsAreDifferentEntries() throws {
        struct GalleryKey: DiskCacheKey {
            var bytes: [UInt8] { DiskCache.keyBytes(kind: "gallery", [Array("/photos/1.jpg".utf8)]) }
        }
        let f = F("disk-kinds")
        defer { f.remove() }
        let cache = f.cache(limit: 1 << 20)
        let file = DiskCache.FileKey(path: RawPath("/photos/1.jpg"), size: 0, modified: 0, variant: "")
        cache.write(file, [1, 2, 3])
        #expect(cache.read(GalleryKey()) == nil)
        cache.write(GalleryKey(), [4, 5])
        #expect(cache.read(file) == [1, 2, 3] && cache.read(GalleryKey()) == [4, 5])
        #expect(file.hashName != GalleryKey().hashName)
        // A record under another key's name (a hash collision, a file moved) is a miss, and goes.
        let moved = try #require(F.bytes(of: cache.entryPath(for: GalleryKey())))
        TestImages.write(moved, to: cache.entryPath(for: file))
        #expect(cache.read(file) == nil)
        #expect(F.bytes(of: cache.entryPath(for: file)) == nil)
    }
}
