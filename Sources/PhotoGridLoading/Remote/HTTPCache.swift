import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// Responses kept on disk, so that a second visit to a gallery loads from disk: fresh ones
/// (`Cache-Control: max-age`) without asking the server, stale ones after a conditional request
/// (`If-None-Match`, `If-Modified-Since`) that the server answers 304. Built on `DiskCache`, so it
/// is bounded, least-recently-used, safe between processes, and ignores damaged entries.
package final class HTTPCache: Sendable {
    /// What is kept of a response besides its body.
    package struct Entry: Sendable, Equatable {
        package var status: Int
        package var storedAt: Int64
        /// Seconds it is fresh for; nil when it must be revalidated every time.
        package var maxAge: Int64?
        /// Seconds past its freshness it may still be used while it is revalidated in the
        /// background (`stale-while-revalidate`, RFC 5861); nil when not at all.
        package var staleWindow: Int64? = nil
        package var etag: String?
        package var lastModified: String?
        package var contentType: String?
        package var body: [UInt8]

        /// The entry as a response served from the cache, for `url`.
        package func result(url: RemoteURL) -> FetchResult {
            FetchResult(status: status, body: body, contentType: contentType, url: url, fromCache: true)
        }

        package func isFresh(now: Int64) -> Bool { maxAge.map { now - storedAt < $0 } ?? false }
        /// Stale, but usable while a revalidation runs in the background.
        package func mayServeStale(now: Int64) -> Bool {
            guard let maxAge, let staleWindow, canRevalidate else { return false }
            return now - storedAt < maxAge + staleWindow
        }
        package var canRevalidate: Bool { etag != nil || lastModified != nil }
    }

    let disk: DiskCache
    /// Heads read or written this run: the batch planner and each tile's download ask for the
    /// same rendition's head within milliseconds, and a second visit's screen is mostly these
    /// reads. Bounded; emptied when full.
    private let heads = Locked<[Key: Entry]>([:])
    static let remembered = 4096

    package init(disk: DiskCache) { self.disk = disk }

    /// The cache under `$XDG_CACHE_HOME/photogrid/http`, or nil when there is none to be had.
    package static func standard(limitBytes: Int) -> HTTPCache? {
        guard limitBytes > 0, let base = DiskCache.defaultDirectory(environment: Environment.values(Environment.cacheNames)),
              let disk = DiskCache(directory: base + "/http", limitBytes: limitBytes, checked: false) else { return nil }
        return HTTPCache(disk: disk)
    }

    /// A response's entry: by its URL and the byte range asked for, if any; with `head`, the
    /// small record of its head alone (`head(for:range:)`).
    package struct Key: DiskCacheKey, Hashable {
        let url: RemoteURL
        let range: Range<Int>?
        var head = false

        package var bytes: [UInt8] {
            DiskCache.keyBytes(kind: head ? "http-head" : "http", [Array(url.description.utf8)]
                + (range.map { [DiskCache.field(Int64($0.lowerBound)), DiskCache.field(Int64($0.upperBound))] } ?? []))
        }
    }

    package func entry(for url: RemoteURL, range: Range<Int>?) -> Entry? {
        disk.read(Key(url: url, range: range)).flatMap(HTTPCache.decode)
    }

    /// A response's entry without its body, whose place holds the body's hash (`bodyHash`):
    /// what a second visit asks of each rendition (may it be used, what is its validator)
    /// without reading a body its tile, kept on disk, does not need. Read from its own small
    /// record, written beside the entry; an entry stored before there were heads gets one now.
    package func head(for url: RemoteURL, range: Range<Int>?) -> Entry? {
        let key = Key(url: url, range: range, head: true)
        if let head = heads.withLock({ $0[key] }) { return head }
        if let head = disk.read(key).flatMap(HTTPCache.decode), head.body.count == 8 {
            remember(head, key)
            return head
        }
        guard let entry = entry(for: url, range: range) else { return nil }
        let head = HTTPCache.head(of: entry)
        disk.write(key, HTTPCache.encode(head))
        remember(head, key)
        return head
    }

    package func store(_ entry: Entry, for url: RemoteURL, range: Range<Int>?) {
        let key = Key(url: url, range: range, head: true), head = HTTPCache.head(of: entry)
        disk.write(Key(url: url, range: range), HTTPCache.encode(entry))
        disk.write(key, HTTPCache.encode(head))
        remember(head, key)
    }

    private func remember(_ head: Entry, _ key: Key) {
        heads.withLock { heads in
            if heads.count >= HTTPCache.remembered { heads.removeAll(keepingCapacity: true) }
            heads[key] = head
        }
    }

    static func head(of entry: Entry) -> Entry {
        var head = entry
        head.body = withUnsafeBytes(of: bodyHash(entry.body).littleEndian) { Array($0) }
        return head
    }

    /// What a body is known by when its response has no ETag and no Last-Modified.
    package static func bodyHash(_ body: [UInt8]) -> UInt64 {
        var hash = Hash128()
        hash.combine(field: body)
        return hash.value64
    }

    /// The body's hash a head holds.
    static func bodyHash(ofHead head: Entry) -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: head.body.prefix(8)) }
        return UInt64(littleEndian: value)
    }

    /// What `Cache-Control` allows: nil for `no-store` (keep nothing), else the entry's freshness:
    /// `max-age` seconds, or none (revalidate every time) for `no-cache` or no directive.
    package static func freshness(cacheControl: String?) -> Int64?? {
        let directives = directives(cacheControl)
        if directives.contains("no-store") { return nil }
        if directives.contains("no-cache") { return .some(nil) }
        for directive in directives where directive.hasPrefix("max-age=") {
            if let seconds = Int64(directive.dropFirst(8)), seconds >= 0 { return .some(seconds) }
        }
        return .some(nil)
    }

    /// The `stale-while-revalidate` window a `Cache-Control` gives, if any (RFC 5861); none
    /// with `no-cache`, which asks for a revalidation before every use.
    package static func staleWindow(cacheControl: String?) -> Int64? {
        let directives = directives(cacheControl)
        guard !directives.contains("no-cache"), !directives.contains("no-store") else { return nil }
        for directive in directives where directive.hasPrefix("stale-while-revalidate=") {
            if let seconds = Int64(directive.dropFirst(23)), seconds > 0 { return seconds }
        }
        return nil
    }

    /// A `Cache-Control` value's directives, lower case, without spaces around them.
    static func directives(_ cacheControl: String?) -> [String] {
        (cacheControl ?? "").lowercased().split(separator: ",").map { String($0.trimmingSpaces) }
    }


    // The payload: fields as (length, bytes) after a version byte, then the body. Version 2
    // added the stale window after the freshness; version 1 entries are read as without one.
    package static func encode(_ entry: Entry) -> [UInt8] {
        var out: [UInt8] = [2]
        func number(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        func text(_ value: String?) {
            let bytes = value.map { Array($0.utf8) } ?? []
            number(value == nil ? -1 : Int64(bytes.count))
            out += bytes
        }
        number(Int64(entry.status))
        number(entry.storedAt)
        number(entry.maxAge ?? -1)
        number(entry.staleWindow ?? -1)
        text(entry.etag)
        text(entry.lastModified)
        text(entry.contentType)
        return out + entry.body
    }

    static func decode(_ bytes: [UInt8]) -> Entry? {
        guard let version = bytes.first, version == 1 || version == 2 else { return nil }
        var at = 1
        func number() -> Int64? {
            guard at + 8 <= bytes.count else { return nil }
            var value: Int64 = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[at..<(at + 8)]) }
            at += 8
            return Int64(littleEndian: value)
        }
        func text() -> String?? {
            guard let length = number() else { return nil }
            if length < 0 { return .some(nil) }
            guard length <= bytes.count - at else { return nil }
            defer { at += Int(length) }
            return .some(String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self))
        }
        guard let status = number(), let storedAt = number(), let maxAge = number(),
              let staleWindow = version == 2 ? number() : -1,
              let etag = text(), let lastModified = text(), let contentType = text() else { return nil }
        return Entry(status: Int(status), storedAt: storedAt, maxAge: maxAge < 0 ? nil : maxAge,
                     staleWindow: staleWindow < 0 ? nil : staleWindow, etag: etag,
                     lastModified: lastModified, contentType: contentType, body: Array(bytes[at...]))
    }
}
