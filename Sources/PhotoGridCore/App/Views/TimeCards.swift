import PhotoGridModel

/// The months and years as cards, as the phone's Photos shows them: one card a period, its key
/// photo filling the card and the period's name and count written above it, the cards flowing
/// across the screen in date order whatever the library's density, so that a month with one
/// photo is one card, not a band of one tile and a screen's width of black.
///
/// The key photo of a period is its highest rated photo (the earliest of those), else the one in
/// its middle; never a rejected one while the period has another. Ratings are those known
/// without reading a file: set here, read for the filters, or read with the dates (the catalog's
/// and the headers', `CaptureDates`), so choosing decodes nothing.
struct TimeCards {
    let scale: TimeScale
    /// The key photos, one a period, in order: the list the cards' grid shows.
    let list: PhotoList
    /// "March 2019 · 12", "2019 · 1,204": written above each card.
    let labels: [String]
    /// The period's name alone, for the status line.
    let names: [String]
    /// Each period's first photo and its count, in the gallery's list (date order).
    let starts: [Int]
    let counts: [Int]

    /// The cards of `photos` (in date order) grouped by `names` (a period's name per photo);
    /// `rating` is a photo's rating as far as it is known (-1 a reject).
    init(scale: TimeScale, photos: PhotoList, names: [String], rating: (PhotoID) -> Int) {
        self.scale = scale
        var starts: [Int] = [], counts: [Int] = [], keys: [PhotoID] = [], labels: [String] = [], periodNames: [String] = []
        var start = 0
        while start < min(names.count, photos.count) {
            var end = start + 1
            while end < names.count && end < photos.count && names[end] == names[start] { end += 1 }
            let key = TimeCards.keyIndex(start..<end) { rating(photos.ids[$0]) }
            starts.append(start)
            counts.append(end - start)
            keys.append(photos.ids[key])
            periodNames.append(names[start])
            labels.append(names[start] + " · " + TimeCards.grouped(end - start))
            start = end
        }
        self.starts = starts
        self.counts = counts
        self.labels = labels
        self.names = periodNames
        list = PhotoList(table: photos.table, ids: keys)
    }

    /// The period's key photo: the highest rated (the earliest of equals), else the middle one,
    /// passing over rejects while there is another.
    static func keyIndex(_ period: Range<Int>, rating: (Int) -> Int) -> Int {
        var best: (index: Int, rating: Int)?
        for index in period {
            let stars = rating(index)
            if stars > 0, stars > (best?.rating ?? 0) { best = (index, stars) }
        }
        if let best { return best.index }
        let middle = period.lowerBound + (period.count - 1) / 2
        // Outward from the middle, the nearest photo that is not a reject.
        for step in 0..<period.count {
            for index in [middle + step, middle - step] where period.contains(index) && rating(index) >= 0 { return index }
        }
        return middle
    }

    /// The card of the period the photo at `index` (in the gallery's list) is in.
    func card(containing index: Int) -> Int {
        var low = 0, high = starts.count - 1
        guard high >= 0 else { return 0 }
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Cards a row: as many as fit at a readable size (a card about 30 cells wide for a year, 24
    /// for a month: room for "September 2019 · 1,204"), two at least; fewer, and so larger,
    /// while all the cards still fit on one screen, so that a library of three years fills the
    /// screen with three large cards rather than a third of it with three small ones.
    static func columns(_ scale: TimeScale, screen: ScreenMetrics, cards: Int) -> Int {
        var columns = columns(scale, screenColumns: screen.columns)
        while columns > 2 {
            let larger = GridLayout(screen: screen, columns: columns - 1, sections: true, photos: cards, limit: columns - 1)
            guard larger.rowCount(photos: cards) * larger.rowPitch <= larger.viewportRows + GridLayout.gap else { break }
            columns -= 1
        }
        return columns
    }

    /// The cards' layout: `columns` a row, and where the rows leave the screen part empty, taller
    /// (up to half as tall again as square) so that the cards fill it.
    static func layout(_ scale: TimeScale, screen: ScreenMetrics, cards: Int) -> GridLayout {
        let columns = columns(scale, screen: screen, cards: cards)
        let square = GridLayout(screen: screen, columns: columns, sections: true, photos: cards, limit: columns)
        let rows = max(1, square.rowCount(photos: cards))
        let filling = (square.viewportRows + GridLayout.gap) / rows - GridLayout.gap
        guard filling > square.tileRows else { return square }
        return GridLayout(screen: screen, columns: columns, sections: true, photos: cards, limit: columns,
                          height: min(filling, square.tileRows * 3 / 2))
    }

    static func columns(_ scale: TimeScale, screenColumns: Int) -> Int {
        switch scale {
        case .years: return max(2, min(8, (screenColumns + 1) / 31))
        default: return max(2, min(10, (screenColumns + 1) / 25))
        }
    }

    /// The year in a period's name ("March 2019", "2019").
    static func year(of name: String) -> String { String(name.split(separator: " ").last ?? Substring(name)) }

    /// 1204 as "1,204".
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
