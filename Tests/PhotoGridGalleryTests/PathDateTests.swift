import Testing
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem

/// Dates estimated from where photos are kept, as libraries and phones name them, and names that
/// only look like dates.
@Suite struct PathDateTests {
    static func day(_ text: String) -> String? {
        CaptureDate.fromPath(RawPath(text)).map { seconds in
            let (y, m, d) = CaptureDate.civil(seconds)
            return "\(y)-\(m)-\(d)"
        }
    }

    @Test(arguments: [
        ("2015/2015-03-01/IMG_0042.jpg", "2015-3-1"),
        ("2015/03/01/IMG_0042.jpg", "2015-3-1"),                 // the deepest that names a day: none; then 2015/03 below
        ("Camera/20150301_142233.jpg", "2015-3-1"),
        ("DCIM/IMG_20191231_235959.jpg", "2019-12-31"),
        ("PXL_20230714_194205123.jpg", "2023-7-14"),
        ("2015_03_01 Holiday/a.jpg", "2015-3-1"),
        ("Trips/2019.07.14 Alps/b.jpg", "2019-7-14"),
        ("2015-03 Lisbon/c.jpg", "2015-3-1"),
        ("2015/03 March/c.jpg", "2015-3-1"),
        ("2015/c.jpg", "2015-1-1"),
    ])
    func pathsThatNameADay(_ path: String, _ expected: String) {
        if path == "2015/03/01/IMG_0042.jpg" {
            // Three folders of numbers: year and month are read, the day folder is not a date alone.
            #expect(Self.day(path) == "2015-3-1")
        } else {
            #expect(Self.day(path) == expected, "\(path)")
        }
    }

    @Test(arguments: ["IMG_0042.jpg", "DSC08000.JPG", "2015-13-01/a.jpg", "20151399_x.jpg", "holiday/a.jpg", "1234567890.jpg",
                      "3000/a.jpg", "0042/a.jpg"])
    func namesThatOnlyLookLikeDates(_ path: String) {
        #expect(Self.day(path) == nil, "\(path)")
    }

    /// A month or year folder keeps the file's own time when it falls inside it: the estimate
    /// then orders the month's photos too.
    @Test func aMonthFolderKeepsTheFilesTimeWhenItFits() {
        let inside = CaptureDate.wallClock(year: 2015, month: 3, day: 17, hour: 9, minute: 0, second: 0)
        let outside = CaptureDate.wallClock(year: 2021, month: 1, day: 2, hour: 9, minute: 0, second: 0)
        #expect(CaptureDate.fromPath(RawPath("2015/03/a.jpg"), fileTime: inside) == inside)
        #expect(CaptureDate.fromPath(RawPath("2015/03/a.jpg"), fileTime: outside) == CaptureDate.wallClock(year: 2015, month: 3, day: 1, hour: 12, minute: 0, second: 0))
        #expect(CaptureDate.fromPath(RawPath("2015/a.jpg"), fileTime: inside) == inside)
    }

    /// Before its date is read, a photo goes in the date order by its path, else its file's time.
    @Test func theDateOrderEstimatesFromThePath() {
        let late = Photo(path: RawPath("/l/2019/2019-05-01/a.jpg"), relativePath: RawPath("2019/2019-05-01/a.jpg"))
        let early = Photo(path: RawPath("/l/2012/2012-01-09/b.jpg"), relativePath: RawPath("2012/2012-01-09/b.jpg"))
        #expect(PhotoOrder(.date).apply([late, early]).map(\.name) == ["b.jpg", "a.jpg"])
        // A date read wins over the estimate.
        let read: [PhotoSource: Int64?] = [late.source: CaptureDate.parse("2010:01:01 00:00:00")]
        #expect(PhotoOrder(.date).apply([late, early], dates: read).map(\.name) == ["a.jpg", "b.jpg"])
    }
}
