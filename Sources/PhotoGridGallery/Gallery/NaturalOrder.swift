import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The order file managers and photo apps show names in: letters without regard to case, runs
/// of digits by their value (`IMG_2` < `img_3` < `IMG_10`), and for paths a folder's own photos
/// before its subfolders, so the top folder comes first and each folder's photos stay together.
/// Raw byte order is what a plain sort gives, and it scatters all three.
package enum NaturalOrder {
    /// `items` in this order of the relative paths `path` gives; each path is split once.
    package static func sorted<T>(_ items: [T], by path: (T) -> [UInt8]) -> [T] {
        let keyed = items.map { (Key(path($0)), $0) }
        // A folder's list comes from the scanner in this order already: one look along it
        // instead of a sort (a tenth of the comparisons on 120,000 photos).
        if zip(keyed, keyed.dropFirst()).allSatisfy({ !$1.0.precedes($0.0) }) { return items }
        return keyed.sorted { $0.0.precedes($1.0) }.map(\.1)
    }

    /// Whether relative path `a` comes before `b` (both `/`-separated bytes).
    package static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool { Key(a).precedes(Key(b)) }

    /// Whether the file at relative path `path` comes before every path under `folder` ("a/b/"):
    /// a folder not yet read can bring nothing that goes before it.
    package static func precedesAllUnder(_ folder: [UInt8], _ path: [UInt8]) -> Bool {
        let names = folder.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        for i in 0..<min(names.count, parts.count) {
            // A file in the folder or above it: before the subfolders there.
            if i == parts.count - 1 { return true }
            let order = compare(parts[i], names[i])
            if order != 0 { return order < 0 }
        }
        return false
    }

    /// A path split into its names, to be compared many times in a sort.
    package struct Key {
        let bytes: [UInt8]
        let parts: [ArraySlice<UInt8>]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            parts = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        }

        func precedes(_ other: Key) -> Bool {
            for i in 0..<min(parts.count, other.parts.count) {
                let last = i == parts.count - 1, otherLast = i == other.parts.count - 1
                // A file beside a folder: the folder's own photos first.
                if last != otherLast { return last }
                let order = NaturalOrder.compare(parts[i], other.parts[i])
                if order != 0 { return order < 0 }
            }
            if parts.count != other.parts.count { return parts.count < other.parts.count }
            // Names equal but for case or leading zeros: bytes decide, so the order is total.
            return bytes.lexicographicallyPrecedes(other.bytes)
        }
    }

    /// -1, 0 or 1: `a` against `b` as names, letters folded to lower case (ASCII; other bytes
    /// as they are), digit runs by value.
    package static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        var i = a.startIndex, j = b.startIndex
        while i < a.endIndex, j < b.endIndex {
            if isDigit(a[i]), isDigit(b[j]) {
                // Leading zeros say nothing of the value; then the longer run is the larger number.
                while i < a.endIndex, a[i] == UInt8(ascii: "0") { i += 1 }
                while j < b.endIndex, b[j] == UInt8(ascii: "0") { j += 1 }
                var endA = i, endB = j
                while endA < a.endIndex, isDigit(a[endA]) { endA += 1 }
                while endB < b.endIndex, isDigit(b[endB]) { endB += 1 }
                if endA - i != endB - j { return endA - i < endB - j ? -1 : 1 }
                while i < endA {
                    if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                    i += 1; j += 1
                }
                continue
            }
            let x = folded(a[i]), y = folded(b[j])
            if x != y { return x < y ? -1 : 1 }
            i += 1; j += 1
        }
        if i < a.endIndex { return 1 }
        if j < b.endIndex { return -1 }
        return 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
