import Testing
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The months and years as cards: which photo a card shows, what it says, and where the focus
/// goes between cards and photos.
@Suite struct TimeCardsTests {
    static func photos(_ count: Int) -> PhotoList {
        PhotoList((0..<count).map { Photo(path: RawPath("/p/\($0).jpg"), relativePath: RawPath("\($0).jpg"), format: .jpeg) })
    }

    @Test func aPeriodShowsItsBestRatedPhotoElseItsMiddleNeverAReject() {
        // No ratings: the middle (the earlier of two middles).
        #expect(TimeCards.keyIndex(0..<5) { _ in 0 } == 2)
        #expect(TimeCards.keyIndex(10..<14) { _ in 0 } == 11)
        // The highest rated, the earliest of equals.
        #expect(TimeCards.keyIndex(0..<6) { [0, 3, 5, 1, 5, 0][$0] } == 2)
        // A reject in the middle gives way to the nearest photo that is not one.
        #expect(TimeCards.keyIndex(0..<5) { [0, -1, -1, 0, 0][$0] } == 3)
        #expect(TimeCards.keyIndex(0..<3) { [0, -1, -1][$0] } == 0)
        // Only rejects: still a card, on its middle.
        #expect(TimeCards.keyIndex(0..<3) { _ in -1 } == 1)
        #expect(TimeCards.keyIndex(7..<8) { _ in 0 } == 7)
    }

    @Test func aCardAPeriodWithItsNameAndCount() {
        let list = Self.photos(7)
        let names = ["May 2021", "March 2022", "March 2022", "March 2022", "July 2023", "July 2023", "January 2024"]
        let ratings: [Int] = [0, 0, 4, 0, -1, 0, 0]
        let cards = TimeCards(scale: .months, photos: list, names: names) { ratings[Int(list.index(of: $0)!)] }
        #expect(cards.labels == ["May 2021 · 1", "March 2022 · 3", "July 2023 · 2", "January 2024 · 1"])
        #expect(cards.starts == [0, 1, 4, 6])
        #expect(cards.counts == [1, 3, 2, 1])
        #expect(cards.list.ids == [0, 2, 5, 6].map { list.ids[$0] }, "the rated photo of March, July's that is not a reject")
        #expect((0..<7).map { cards.card(containing: $0) } == [0, 1, 1, 1, 2, 2, 3])
        #expect(TimeCards.grouped(1204) == "1,204" && TimeCards.grouped(999) == "999" && TimeCards.grouped(1_000_000) == "1,000,000")
        #expect(TimeCards.year(of: "March 2022") == "2022" && TimeCards.year(of: "2019") == "2019")
    }

    @Test func asManyCardsARowAsAreReadable() {
        #expect(TimeCards.columns(.years, screenColumns: 160) == 5)
        #expect(TimeCards.columns(.months, screenColumns: 160) == 6)
        #expect(TimeCards.columns(.months, screenColumns: 40) == 2)
        #expect(TimeCards.columns(.years, screenColumns: 400) == 8)
        // Fewer and larger while they all still fit: three years across a 160x45 screen of 10x20
        // cells are three cards, not five small ones; nine stay five a row.
        let screen = ScreenMetrics(columns: 160, rows: 45, cellWidth: 10, cellHeight: 20)
        #expect(TimeCards.columns(.years, screen: screen, cards: 3) == 3)
        #expect(TimeCards.columns(.years, screen: screen, cards: 9) == 5)
        #expect(TimeCards.columns(.months, screen: screen, cards: 60) == 6)
    }

    /// Out from a photo to its day, month and year; in from a card to its period's first photo.
    @Test func zoomingKeepsTheEyeOnThePeriod() throws {
        let root = TestImages.scratchFolder("time-cards")
        defer { TestImages.remove(root) }
        let taken = ["2019:03:01 10:00:00", "2019:03:05 10:00:00", "2019:08:01 10:00:00", "2021:01:02 10:00:00",
                     "2021:06:01 10:00:00", "2021:06:02 10:00:00", "2023:12:24 10:00:00"]
        for (index, date) in taken.enumerated() {
            TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: date)), to: root + "/\(index).jpg")
        }
        let waiter = Waiter()
        let session = GridSession(photos: try FolderScanner().scan(RawPath(root)), mode: .halfBlock(.trueColor), fit: .fill,
                                  cacheBytes: 64 << 20) { waiter.signal() }
        defer { session.pipeline.stop() }
        let grid = GridController(title: "library", session: session, screen: ScreenMetrics(columns: 160, rows: 45), columns: 6,
                                  modeName: "half-block")
        grid.allowChanges(order: PhotoOrder(.date), showHidden: false, rescan: nil) { photos in
            CaptureDates(photos: photos, reader: InfoReader(loader: FileLoader(), decoder: PhotoDecoder()), catalog: nil) { waiter.signal() }
        }
        #expect(waiter.wait { grid.gallery.dates.reader?.progress.finished ?? true })
        grid.take(.datesRead)
        func focused() -> String { grid.topScreen.currentPhoto(grid.context).map { grid.session.table[$0].name } ?? "none" }
        func status() -> String { grid.frame().status }
        for _ in 0..<5 { grid.handle(.right) }                // 5.jpg, 2 June 2021
        grid.handle(.character("-"))
        #expect(status().contains("2021-06-02") && focused() == "5.jpg", "\(status())")
        grid.handle(.character("-"))
        #expect(status().contains("June 2021") && status().contains("4 of 5 months"), "\(status())")
        grid.handle(.character("-"))
        #expect(status().contains("2 of 3 years") && status().contains("2019-2023"), "\(status())")
        #expect(focused() == "4.jpg" || focused() == "3.jpg", "2021's middle photo: \(focused())")
        grid.handle(.left)                                  // 2019
        grid.handle(.character("+"))
        #expect(status().contains("March 2019") && status().contains("1 of 5 months"), "\(status())")
        grid.handle(.right)                                 // August 2019
        grid.handle(.enter)
        #expect(status().contains("2019-08-01") && focused() == "2.jpg", "\(status())")
        grid.handle(.character("+"))
        #expect(!(grid.topScreen is TimeView) && focused() == "2.jpg", "\(status())")
    }
}
