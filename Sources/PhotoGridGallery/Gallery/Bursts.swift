import PhotoGridDecoding

/// Bursts and near-duplicates: photos taken within `gap` seconds of each other whose looks
/// (`PhotoLook`: a difference hash and the colours) are alike, chained, so a burst of five shots a
/// second apart is one group even when its first and last frames are further apart. Both tests
/// must hold: two different scenes a second apart (a street, then a face) stay apart, and the
/// same view taken again an hour later is a new shot, not a duplicate. The grid shows each group
/// as one tile (a stack); `--duplicates` prints them.
package enum Bursts {
    /// Seconds between two shots of one burst: a camera's burst is several a second, a
    /// photographer's "one more" a second or two later.
    package static let gap: Int64 = 2

    /// The photos (by index) that have another within `gap` seconds: the only ones whose looks
    /// need to be read.
    package static func candidates(_ dates: [Int64?]) -> [Int] {
        let dated = dates.indices.filter { dates[$0] != nil }.sorted { dates[$0]! < dates[$1]! }
        var out: [Int] = []
        for (place, index) in dated.enumerated() {
            let time = dates[index]!
            let before = place > 0 && time - dates[dated[place - 1]]! <= gap
            let after = place + 1 < dated.count && dates[dated[place + 1]]! - time <= gap
            if before || after { out.append(index) }
        }
        return out.sorted()
    }

    /// Groups of two or more photos (indexes, each group in index order, the groups in the order
    /// of their first photo).
    package static func groups(dates: [Int64?], looks: [PhotoLook?]) -> [[Int]] {
        let dated = dates.indices.filter { dates[$0] != nil && looks[$0] != nil }.sorted { (dates[$0]!, $0) < (dates[$1]!, $1) }
        var parent = Array(dates.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        // Each photo against the ones after it within the gap (few: a burst is a few a second).
        for (place, a) in dated.enumerated() {
            for b in dated[(place + 1)...] {
                guard dates[b]! - dates[a]! <= gap else { break }
                if looks[a]!.isAlike(looks[b]!) { parent[root(b)] = root(a) }
            }
        }
        var members: [Int: [Int]] = [:]
        for i in dates.indices { members[root(i), default: []].append(i) }
        return members.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
    }
}
