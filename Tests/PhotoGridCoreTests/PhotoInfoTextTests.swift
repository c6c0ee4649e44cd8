import Testing
@testable import PhotoGridMetadata

@Suite struct PhotoInfoTextTests {
    @Test func exposureIsAFractionOfASecondOrSeconds() {
        #expect(PhotoInfo.exposureText(1.0 / 250) == "1/250 s")
        #expect(PhotoInfo.exposureText(0.004) == "1/250 s")
        #expect(PhotoInfo.exposureText(1.0 / 8000) == "1/8000 s")
        #expect(PhotoInfo.exposureText(10.0 / 1250) == "1/125 s")
        #expect(PhotoInfo.exposureText(1.0 / 3) == "1/3 s")
        #expect(PhotoInfo.exposureText(0.5) == "1/2 s")
        #expect(PhotoInfo.exposureText(1.0 / 59.94) == "1/60 s")
        // Not near a whole fraction: seconds with one decimal, as exiftool writes them.
        #expect(PhotoInfo.exposureText(0.3) == "0.3 s")
        #expect(PhotoInfo.exposureText(0.8) == "0.8 s")
        #expect(PhotoInfo.exposureText(1) == "1 s")
        #expect(PhotoInfo.exposureText(2.5) == "2.5 s")
        #expect(PhotoInfo.exposureText(30) == "30 s")
        #expect(PhotoInfo.exposureText(1.0 / Double(UInt32.max)) == "1/4294967295 s")
        #expect(PhotoInfo.exposureText(0) == nil && PhotoInfo.exposureText(-1) == nil)
        #expect(PhotoInfo.exposureText(.infinity) == nil && PhotoInfo.exposureText(.nan) == nil)
    }

    @Test func apertureAndFocalLength() {
        #expect(PhotoInfo.fNumberText(2.8) == "f/2.8")
        #expect(PhotoInfo.fNumberText(28.0 / 10) == "f/2.8")
        #expect(PhotoInfo.fNumberText(11) == "f/11")
        #expect(PhotoInfo.fNumberText(1.6) == "f/1.6")
        #expect(PhotoInfo.fNumberText(0.95) == "f/0.95")
        #expect(PhotoInfo.fNumberText(0) == nil && PhotoInfo.fNumberText(.nan) == nil)
        #expect(PhotoInfo.focalLengthText(35) == "35 mm")
        #expect(PhotoInfo.focalLengthText(5.1) == "5.1 mm")
        #expect(PhotoInfo.focalLengthText(4.25) == "4.3 mm")
        #expect(PhotoInfo.focalLengthText(0) == nil)

        var info = PhotoInfo()
        #expect(info.exposureText == nil && info.fNumberText == nil && info.focalLengthText == nil)
        info.exposureTime = 0.004
        info.fNumber = 2.8
        info.focalLength = 35
        #expect(info.exposureText == "1/250 s" && info.fNumberText == "f/2.8" && info.focalLengthText == "35 mm")
    }

    @Test func positionAndMapLink() {
        var info = PhotoInfo()
        info.latitude = 48.858370
        #expect(info.positionText == nil && info.openStreetMapURL == nil)
        info.longitude = 2.294481
        #expect(info.positionText == "48.85837° N, 2.29448° E")
        #expect(info.openStreetMapURL == "https://www.openstreetmap.org/?mlat=48.85837&mlon=2.29448#map=16/48.85837/2.29448")
        info.latitude = -33.8568
        info.longitude = -70.66929
        #expect(info.positionText == "33.85680° S, 70.66929° W")
        #expect(info.openStreetMapURL == "https://www.openstreetmap.org/?mlat=-33.85680&mlon=-70.66929#map=16/-33.85680/-70.66929")
        info.latitude = 0
        info.longitude = -0.000001
        #expect(info.positionText == "0.00000° N, 0.00000° W")
        #expect(info.openStreetMapURL == "https://www.openstreetmap.org/?mlat=0.00000&mlon=0.00000#map=16/0.00000/0.00000")
    }

    @Test func decimalsAreRoundedAndPadded() {
        #expect(PhotoInfo.decimal(0.999996, places: 5) == "1.00000")
        #expect(PhotoInfo.decimal(1.5, places: 0) == "2")
        #expect(PhotoInfo.decimal(-2.25, places: 1, trimmed: true) == "-2.3")
        #expect(PhotoInfo.decimal(3.10, places: 2, trimmed: true) == "3.1")
        #expect(PhotoInfo.decimal(7, places: 3, trimmed: true) == "7")
        #expect(PhotoInfo.decimal(0.00001, places: 5) == "0.00001")
        #expect(PhotoInfo.decimal(1e300, places: 5) == (1e300).description)
    }
}
