import Testing
@testable import PhotoGridCatalog
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem

/// The filter's words read and matched against catalog entries: every kind of term, and the
/// mistakes a user makes answered in words.
@Suite struct PhotoQueryTests {
    static func facts(_ name: String, make: String? = "FUJIFILM", model: String? = "X100V", lens: String? = nil,
                      iso: Int? = nil, f: Double? = nil, shutter: Double? = nil, focal: Double? = nil,
                      taken: String? = nil, gps: Bool = false, rating: Int? = nil, label: String? = nil,
                      keywords: [String] = [], known: Bool = true, appRating: Int? = nil) -> PhotoQuery.Facts {
        let photo = Photo(path: RawPath("/lib/" + name), relativePath: RawPath(name))
        guard known else { return PhotoQuery.Facts(photo: photo, entry: nil, rating: appRating) }
        var entry = CatalogEntry(stamp: FileStamp(size: 1, modified: 1), taken: CaptureDate.parse(taken))
        entry.make = make
        entry.model = model
        entry.lens = lens
        entry.iso = iso
        entry.fNumber = f
        entry.exposureTime = shutter
        entry.focalLength = focal
        entry.hasGPS = gps
        entry.rating = rating
        entry.label = label
        entry.keywords = keywords
        return PhotoQuery.Facts(photo: photo, entry: entry, rating: appRating)
    }

    static func matches(_ text: String, _ facts: PhotoQuery.Facts) throws -> Bool {
        try PhotoQuery(parsing: text).matches(facts)
    }

    @Test func camerasAndLensesByAnyPartOfTheirNames() throws {
        let canon = Self.facts("a.jpg", make: "Canon", model: "Canon EOS 5D Mark IV", lens: "EF24-70mm f/2.8L II USM")
        #expect(try Self.matches("camera:eos5d", canon))
        #expect(try Self.matches("camera:CANON", canon))
        #expect(try !Self.matches("camera:x100v", canon))
        #expect(try Self.matches("lens:24-70mm", canon) && Self.matches("lens:2470", canon))
        #expect(try Self.matches("camera:x100v", Self.facts("b.jpg")))
        #expect(try !Self.matches("lens:23mm", Self.facts("b.jpg")))          // no lens known: no match
    }

    @Test func exposureByComparison() throws {
        let night = Self.facts("n.jpg", iso: 6400, f: 1.4, shutter: 1.0 / 30, focal: 35)
        for (text, expected) in [("iso>=3200", true), ("iso<3200", false), ("iso:6400", true), ("iso=6400", true),
                                 ("f<2.8", true), ("f>=2.8", false), ("f:1.4", true), ("focal:35", true), ("focal>50", false),
                                 ("shutter>=1/60", true), ("shutter<1/250", false), ("shutter:1/30", true)] {
            #expect(try Self.matches(text, night) == expected, "\(text)")
        }
        // f/2.8 is written 2.8 but stored 2.83 by some cameras: equal within 2%.
        #expect(try Self.matches("f:2.8", Self.facts("x.jpg", f: 2.83)))
    }

    @Test func datesYearsMonthsDaysAndRanges() throws {
        let july = Self.facts("j.jpg", taken: "2023:07:14 19:42:05")
        for (text, expected) in [("2023", true), ("2022", false), ("2023-07", true), ("2023-08", false), ("2023-07-14", true),
                                 ("2023-07-15", false), ("2019..2023", true), ("2019..2022", false), ("2023-07..", true),
                                 ("..2022", false), ("2023-06..2023-07", true), ("2023-12..2024", false)] {
            #expect(try Self.matches(text, july) == expected, "\(text)")
        }
        #expect(try !Self.matches("2023", Self.facts("none.jpg")))                  // no date: in no period
        #expect(try Self.matches("has:date", july) && !Self.matches("has:date", Self.facts("none.jpg")))
    }

    @Test func labelsKeywordsRatingsAndKinds() throws {
        let photo = Self.facts("trip/ice.jpg", gps: true, rating: 4, label: "Red", keywords: ["Iceland", "Places|Vik"])
        #expect(try Self.matches("label:red", photo) && !Self.matches("label:blue", photo))
        #expect(try Self.matches("keyword:iceland", photo) && Self.matches("keyword:vik", photo) && !Self.matches("keyword:ice", photo))
        #expect(try Self.matches("rating>=4", photo) && !Self.matches("rating:5", photo))
        #expect(try Self.matches("has:gps", photo) && !Self.matches("is:raw", photo))
        #expect(try Self.matches("is:raw", Self.facts("a.NEF")) && Self.matches("is:video", Self.facts("a.mp4")))
        // A rating set with a key since the catalog was read wins.
        #expect(try Self.matches("is:rejected", Self.facts("r.jpg", rating: 3, appRating: -1)))
        #expect(try Self.matches("rating:0", Self.facts("u.jpg", rating: nil)))
    }

    @Test func andOrAndNot() throws {
        let a = Self.facts("2019/a.jpg", iso: 100, taken: "2019:05:01 10:00:00", rating: 5)
        let b = Self.facts("2021/b.jpg", make: "SONY", model: "ILCE-7M3", iso: 6400, taken: "2021:05:01 10:00:00", rating: 2)
        #expect(try Self.matches("camera:x100v 2019..2021 rating>=4", a))
        #expect(try !Self.matches("camera:x100v 2019..2021 rating>=4", b))
        #expect(try Self.matches("camera:x100v or iso>=3200", b))
        #expect(try Self.matches("-camera:x100v", b) && !Self.matches("-camera:x100v", a))
        #expect(try Self.matches("2019 -rating:2", a))
        #expect(try Self.matches("keyword:\"new york\"", Self.facts("ny.jpg", keywords: ["New York"])))
    }

    /// Words match the path, any case; a photo the catalog has not read yet matches only those.
    @Test func wordsMatchNamesAndFolders() throws {
        let photo = Self.facts("Holiday 2019/IMG_1234.JPG", known: false)
        #expect(try Self.matches("holiday img1234", photo))
        #expect(try !Self.matches("camera:x100v", photo))
        #expect(try !PhotoQuery(parsing: "holiday is:raw").needsCatalog)
        #expect(try PhotoQuery(parsing: "holiday rating>=3").needsCatalog)
    }

    @Test(arguments: [
        ("", "an empty filter"), ("or camera:x", "'or' needs a term before it"), ("camera:x or", "'or' needs a term after it"),
        ("iso>=lots", "iso needs a number"), ("speed:3", "no term speed:"), ("camera>3", "camera is matched with camera:text"),
        ("rating:7", "a rating is -1 (rejected) to 5"), ("2023-13", "dates are written"), ("2022..2021", "ends before it starts"),
        ("keyword:\"open", "is not closed"), ("-", "a - goes before a term"), ("is:blurry", "is: takes raw, video or rejected"),
        ("iso:", "needs a value"), ("\"\"", "an empty term"),
    ])
    func mistakesAreSaidInWords(_ text: String, _ words: String) {
        do {
            _ = try PhotoQuery(parsing: text)
            Issue.record("'\(text)' was taken")
        } catch {
            #expect(error.description.contains(words), "'\(text)': \(error.description)")
        }
    }

    /// The fast folding and search for ASCII say what the characters' way says, and text that is
    /// not ASCII still goes that way.
    @Test func foldingAndSearchAgreeWithTheCharactersWay() {
        let slow = { (text: String) in String(text.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" && $0 != "_" }.map(Character.init)) }
        for text in ["FUJIFILM X100V", "Canon EOS 5D Mark_IV", "XF23mm-F2 R WR", "", "Ælfred's Café", "NIKON Z 6_2", "ÉTÉ 2019"] {
            #expect(PhotoQuery.folded(text) == slow(text), "\(text)")
            for term in ["x100v", "eos5d", "23mmf2", "café", "z62", "été", "", "zzz", "fujifilmx100vx"] {
                #expect(PhotoQuery.has(PhotoQuery.folded(text), term) == slow(text).contains(term), "\(text) / \(term)")
            }
        }
    }

    /// Numbers and dates are tried before text, whatever order they were typed in; the words
    /// the status line shows stay as typed.
    @Test func cheapTermsAreTriedFirst() throws {
        let query = try PhotoQuery(parsing: "camera:x100v  2019..2021 -lens:56 rating>=4")
        #expect(query.groups[0].map { PhotoQuery.cost($0) } == [0, 0, 2, 3])
        #expect(query.description == "camera:x100v 2019..2021 -lens:56 rating>=4")
    }
}
