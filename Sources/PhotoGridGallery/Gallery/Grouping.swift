import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Sections, as phone photo apps have them (`--group`, `S`): a header line above the first photo
/// of each run of photos that share a folder, a day or a month. Runs, not sets: the grid keeps
/// its order, and a group whose photos the order scatters gets a header at each of its runs.
package enum Grouping: String, Sendable, CaseIterable {
    case none, folder, day, month, year

    /// The next of `S`'s cycle.
    package var next: Grouping {
        // Years are the time zoom's (`-` past 6 columns); `--group year` gives them too.
        let cycle: [Grouping] = [.none, .folder, .day, .month]
        return cycle[((cycle.firstIndex(of: self) ?? 0) + 1) % cycle.count]
    }

    /// Each photo's group as its header says it ("Phone/2024", "2024-07-14", "July 2024"); nil
    /// for `none`. Days and months go by the capture date where it is known (`dates`), else the
    /// file's time; `title` names the top folder.
    /// Whether its groups go by the dates photos were taken (read in the background).
    package var byDate: Bool { self == .day || self == .month || self == .year }

    package func names(_ photos: [Photo], dates: [PhotoSource: Int64?], title: String) -> [String]? {
        switch self {
        case .none: return nil
        case .folder:
            return photos.map { photo in
                let parent = photo.relativePath.parent.description
                return parent == "." ? title : parent
            }
        case .day, .month, .year:
            // A name made once a day of the library, not once a photo: 120,000 photos are a few
            // thousand days.
            var made: [Int64: String] = [:]
            return photos.map { photo in
                let key = CaptureDate.sortKey(photo, captured: dates[photo.source])
                guard key != Int64.max else { return "no date" }
                let dayNumber = key >= 0 ? key / 86_400 : (key - 86_399) / 86_400
                if let name = made[dayNumber] { return name }
                let (year, month, day) = CaptureDate.civil(key)
                let name: String
                switch self {
                case .year: name = "\(year)"
                case .month: name = Grouping.monthNames[month - 1] + " \(year)"
                default: name = "\(year)-" + (month < 10 ? "0" : "") + "\(month)-" + (day < 10 ? "0" : "") + "\(day)"
                }
                made[dayNumber] = name
                return name
            }
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
}
