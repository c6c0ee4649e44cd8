import PhotoGridSystem

/// A photo as itself, whatever list it is in and wherever it sits there: what the pipeline, the
/// caches, marks and the views know a photo by. Issued once a photo is first seen
/// (`PhotoTable`), and the same for as long as the program runs, so a new order, a filter or a
/// folder read again moves nothing but the list (docs/architecture.md, "A list change").
package struct PhotoID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let raw: UInt32

    package init(raw: UInt32) { self.raw = raw }

    package static func < (a: PhotoID, b: PhotoID) -> Bool { a.raw < b.raw }

    package var description: String { "#\(raw)" }
}

/// Every photo the program has seen, by identity: one record a photo, found by its source (its
/// file, or its remote address). A photo read again with another size or time keeps its
/// identity and gets the new record: its pictures are made again where they are wanted
/// (`TilePipeline.recheck`). Shared by the loop and the workers, so lock-guarded; records are
/// never removed (a photo gone from the folder is only gone from the lists).
package final class PhotoTable: Sendable {
    private struct Records {
        var photos: [Photo] = []
        /// Each source's identity by the source's hash: 16 bytes an entry where the source
        /// itself as the key took about 70 (a million photos: 50 MB less). Two sources of one
        /// hash are told apart by their records; the second and later go to `clashes`.
        var byHash: [Int: UInt32] = [:]
        var clashes: [PhotoSource: UInt32] = [:]

        func find(_ source: PhotoSource, hash: Int) -> UInt32? {
            if let raw = byHash[hash], photos[Int(raw)].source == source { return raw }
            return clashes.isEmpty ? nil : clashes[source]
        }
    }
    private let records = Locked(Records())

    package init() {}

    /// The identities of `photos`, issuing new ones for photos not seen before and taking the
    /// records given for the others.
    package func ids(for photos: [Photo]) -> [PhotoID] {
        records.withLock { records in
            photos.map { photo in
                let hash = photo.source.hashValue
                if let known = records.find(photo.source, hash: hash) {
                    records.photos[Int(known)] = photo
                    return PhotoID(raw: known)
                }
                let raw = UInt32(records.photos.count)
                records.photos.append(photo)
                if records.byHash[hash] == nil { records.byHash[hash] = raw } else { records.clashes[photo.source] = raw }
                return PhotoID(raw: raw)
            }
        }
    }

    /// The identity of one photo (issued if it is new).
    package func id(for photo: Photo) -> PhotoID { ids(for: [photo])[0] }

    /// The identity a source was given, if it has been seen.
    package func id(of source: PhotoSource) -> PhotoID? {
        records.withLock { $0.find(source, hash: source.hashValue).map(PhotoID.init(raw:)) }
    }

    /// The photo's record.
    package subscript(id: PhotoID) -> Photo {
        records.withLock { $0.photos[Int(id.raw)] }
    }

    /// The records of several photos, under one lock.
    package func photos(_ ids: some Sequence<PhotoID>) -> [Photo] {
        records.withLock { records in ids.map { records.photos[Int($0.raw)] } }
    }

    /// How many photos have been seen.
    package var count: Int { records.withLock { $0.photos.count } }
}

/// An order over photos by identity: what the grid shows, first to last. A position in it is an
/// index, never a name; the photo at a position is looked up in its table.
package struct PhotoList: RandomAccessCollection, Sendable {
    package let table: PhotoTable
    package let ids: [PhotoID]
    /// Each photo's position, by its identity's number (-1: not in the list): a photo is found
    /// in a list of a million at once, for four bytes each.
    private let positions: [Int32]

    package init(table: PhotoTable, ids: [PhotoID]) {
        self.table = table
        self.ids = ids
        var positions = [Int32](repeating: -1, count: ids.map { Int($0.raw) + 1 }.max() ?? 0)
        for (index, id) in ids.enumerated() where positions[Int(id.raw)] < 0 { positions[Int(id.raw)] = Int32(index) }
        self.positions = positions
    }

    /// A new table's list of `photos`, in their order.
    package init(_ photos: [Photo]) {
        let table = PhotoTable()
        self.init(table: table, ids: table.ids(for: photos))
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ids.count }
    package subscript(index: Int) -> Photo { table[ids[index]] }

    /// Where `id` is in the list, if it is.
    package func index(of id: PhotoID) -> Int? {
        let raw = Int(id.raw)
        guard raw < positions.count, positions[raw] >= 0 else { return nil }
        return Int(positions[raw])
    }

    package func contains(_ id: PhotoID) -> Bool { index(of: id) != nil }

    /// The records of the whole list, under one lock: for sorting and filtering.
    package var records: [Photo] { table.photos(ids) }
}
