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
            return photos.map { photo in
                let key = CaptureDate.sortKey(photo, captured: dates[photo.source])
                guard key != Int64.max else { return "no date" }
                let (year, month, day) = CaptureDate.civil(key)
                if self == .year { return "\(year)" }
                if self == .month { return Grouping.monthNames[month - 1] + " \(year)" }
                return "\(year)-" + (month < 10 ? "0" : "") + "\(month)-" + (day < 10 ? "0" : "") + "\(day)"
            }
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
}
