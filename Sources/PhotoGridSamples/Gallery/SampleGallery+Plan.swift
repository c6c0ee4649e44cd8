/// The plan of the sample gallery: 50 photos in three folders.
///
/// What the issue asks of it, and where it is: every shape (3:2, 4:3, 16:9, 2:3, 3:4, square,
/// 3:1 and 4:1 panoramas), mostly 1-4 MP with two 12 MP camera-sized photos; a few progressive;
/// DateTimeOriginal on most, GPS, captions and camera names on some; Orientation 6 and 8 on
/// phone shots whose pixels are stored sideways; EXIF thumbnails on a few; no EXIF on three.
///
/// For the details panel: every photo with a camera also has its lens and exposure (ISO, f-number,
/// shutter time from 1/1000 s to 20 s, focal length). Captions come from all three places a
/// reader looks: EXIF on twelve, XMP alone on three (one without any EXIF, one with XML entities,
/// one in German), IPTC alone on two (Japanese in UTF-8, Spanish in undeclared Latin-1), and two
/// with more than one, where EXIF wins over XMP and XMP over IPTC.
extension SampleGallery {
    package static let entries: [SampleEntry] = landscapes + travel + night

    private static let landscapes: [SampleEntry] = [
        photo("landscapes/hills-01.jpg", .hills, Frame.camera12MP3x2, quality: 85, taken: "2022:05:14 10:21:33",
              camera: .canon, place: Place.tuscany, caption: "Rolling hills near Pienza"),
        photo("landscapes/hills-02.jpg", .hills, Frame.wide3x2, taken: "2022:05:14 10:48:02", camera: .canon,
              xmp: "Cypresses & the road to San Quirico"),
        photo("landscapes/hills-03.jpg", .hills, Frame.tall2x3, taken: "2022:05:15 16:05:40",
              camera: .phone, place: Place.tuscany, orientation: 6),
        // XMP but no EXIF at all.
        photo("landscapes/hills-04.jpg", .hills, Frame.square, xmp: "Green hills in spring"),
        photo("landscapes/mountains-01.jpg", .mountains, Frame.camera12MP4x3, quality: 85, taken: "2022:02:03 07:12:55",
              camera: .nikon, place: Place.patagonia, caption: "Fitz Roy massif at first light",
              shot: Shot(time: .init(1, 60), f: .init(8, 1), iso: 200, focal: .init(24, 1))),
        photo("landscapes/mountains-02.jpg", .mountains, Frame.wide16x9, taken: "2022:02:03 07:30:18", camera: .nikon),
        photo("landscapes/mountains-03.jpg", .mountains, Frame.panorama4x1, taken: "2022:02:04 12:02:09",
              camera: .nikon, caption: "Panorama from the ridge",
              shot: Shot(time: .init(1, 500), f: .init(8, 1), iso: 100, focal: .init(70, 1))),
        photo("landscapes/mountains-04.jpg", .mountains, Frame.tall3x4, taken: "2022:02:04 13:44:51",
              camera: .phone, place: Place.patagonia, orientation: 8),
        photo("landscapes/mountains-05.jpg", .mountains, Frame.wide4x3, taken: "2022:02:05 09:15:00", thumbnail: true),
        photo("landscapes/misty-01.jpg", .misty, Frame.wide3x2, taken: "2022:10:08 06:52:31",
              camera: .fuji, caption: "Morning mist in the valley",
              shot: Shot(time: .init(1, 60), f: .init(8, 1), iso: 400, focal: .init(16, 1))),
        photo("landscapes/misty-02.jpg", .misty, Frame.tall2x3Small, taken: "2022:10:08 07:03:12", camera: .fuji),
        photo("landscapes/misty-03.jpg", .misty, Frame.panorama3x1, taken: "2022:10:08 07:20:44",
              camera: .fuji, place: Place.blackForest, xmp: "Nebel über dem Schwarzwald"),
        photo("landscapes/misty-04.jpg", .misty, Frame.wide4x3, progressive: true, taken: "2022:10:09 07:01:05"),
        photo("landscapes/lake-01.jpg", .lake, Frame.wide3x2Large, taken: "2022:07:21 09:34:27",
              camera: .canon, place: Place.bled, caption: "Still water at Lake Bled",
              shot: Shot(time: .init(3, 10), f: .init(11, 1), iso: 100, focal: .init(35, 1)),
              xmp: "Bled Island from the western shore"),
        photo("landscapes/lake-02.jpg", .lake, Frame.square, taken: "2022:07:21 09:40:13", camera: .canon, thumbnail: true),
        photo("landscapes/lake-03.jpg", .lake, Frame.wide16x9, progressive: true, taken: "2022:07:21 18:12:40"),
        photo("landscapes/lake-04.jpg", .lake, Frame.tall3x4, taken: "2022:07:22 08:27:19",
              camera: .phone, place: Place.bled, orientation: 6),
        photo("landscapes/autumn-01.jpg", .autumn, Frame.wide4x3, taken: "2022:10:23 14:11:52",
              camera: .fuji, caption: "Maples turning in October"),
        photo("landscapes/autumn-02.jpg", .autumn, Frame.tall2x3, taken: "2022:10:23 14:25:37", camera: .fuji, thumbnail: true),
        photo("landscapes/autumn-03.jpg", .autumn, Frame.wide16x9Large, taken: "2022:10:24 11:03:16"),
        photo("landscapes/autumn-04.jpg", .autumn, Frame.squareLarge),
        photo("landscapes/autumn-05.jpg", .autumn, Frame.wide3x2Small, taken: "2022:10:24 11:09:58"),
    ]

    private static let travel: [SampleEntry] = [
        photo("travel/desert-01.jpg", .desert, Frame.wide3x2, taken: "2023:03:11 17:42:10",
              camera: .nikon, place: Place.merzouga, caption: "Erg Chebbi dunes"),
        photo("travel/desert-02.jpg", .desert, Frame.panorama3x1, taken: "2023:03:11 17:55:36", camera: .nikon, place: Place.merzouga),
        photo("travel/desert-03.jpg", .desert, Frame.tall2x3, taken: "2023:03:12 08:20:03",
              camera: .phone, place: Place.merzouga, orientation: 6),
        photo("travel/desert-04.jpg", .desert, Frame.wide4x3, taken: "2023:03:12 09:02:47"),
        photo("travel/lavender-01.jpg", .lavender, Frame.wide3x2, taken: "2023:07:02 20:31:15",
              camera: .canon, place: Place.valensole, caption: "Lavender rows in Valensole"),
        photo("travel/lavender-02.jpg", .lavender, Frame.square, taken: "2023:07:02 20:40:51", camera: .canon, place: Place.valensole),
        photo("travel/lavender-03.jpg", .lavender, Frame.wide16x9, taken: "2023:07:03 19:58:22",
              camera: .phone, place: Place.valensole, orientation: 8),
        photo("travel/lavender-04.jpg", .lavender, Frame.tall3x4Large, progressive: true, taken: "2023:07:03 20:15:09"),
        photo("travel/beach-01.jpg", .beach, Frame.wide3x2Large, taken: "2023:11:18 11:26:44",
              camera: .phone, place: Place.laDigue, caption: "Anse Source d'Argent, La Digue"),
        photo("travel/beach-02.jpg", .beach, Frame.wide16x9, taken: "2023:11:18 12:07:31", camera: .phone, place: Place.laDigue,
              xmp: "Granite boulders at Anse Source d'Argent", iptc: "Beach at La Digue"),
        photo("travel/beach-03.jpg", .beach, Frame.tall2x3, taken: "2023:11:19 15:48:02",
              camera: .phone, place: Place.laDigue, orientation: 6, thumbnail: true),
        photo("travel/beach-04.jpg", .beach, Frame.panorama4x1, taken: "2023:11:20 10:33:57"),
        photo("travel/sunset-01.jpg", .sunset, Frame.wide3x2, taken: "2023:09:05 19:41:26",
              camera: .canon, place: Place.santorini, caption: "Sunset over the Aegean", shot: Shot.canonSunset),
        photo("travel/sunset-02.jpg", .sunset, Frame.tall3x4, taken: "2023:09:05 19:47:03", camera: .canon, place: Place.santorini,
              shot: Shot.canonSunset, iptc: "夕焼け, Oia"),
        photo("travel/sunset-03.jpg", .sunset, Frame.square),
        photo("travel/sunset-04.jpg", .sunset, Frame.wide4x3Large, taken: "2023:09:06 19:39:45", camera: .fuji, thumbnail: true),
        photo("travel/sunset-05.jpg", .sunset, Frame.wide16x9, taken: "2023:09:07 19:36:20"),
    ]

    private static let night: [SampleEntry] = [
        photo("night/night-01.jpg", .night, Frame.wide3x2, taken: "2024:04:09 23:14:37",
              camera: .nikon, place: Place.atacama, caption: "Moonrise over the Atacama",
              shot: Shot(time: .init(20, 1), f: .init(4, 1), iso: 3200, focal: .init(24, 1))),
        photo("night/night-02.jpg", .night, Frame.tall2x3, taken: "2024:04:09 23:40:02", camera: .nikon,
              shot: Shot(time: .init(5, 2), f: .init(4, 1), iso: 6400, focal: .init(24, 1)),
              iptc: "Vía Láctea sobre el desierto de Atacama", iptcEncoding: .latin1),
        photo("night/night-03.jpg", .night, Frame.wide16x9, progressive: true, taken: "2024:04:10 00:21:48"),
        photo("night/night-04.jpg", .night, Frame.panorama3x1, taken: "2024:04:10 01:05:13", camera: .nikon, place: Place.atacama,
              shot: Shot(time: .init(15, 1), f: .init(4, 1), iso: 3200, focal: .init(24, 1))),
        photo("night/night-05.jpg", .night, Frame.tall3x4, taken: "2024:04:10 01:32:26", camera: .phone, orientation: 8,
              shot: Shot(time: .init(1, 4), f: .init(8, 5), iso: 2500, focal: .init(51, 10))),
        photo("night/night-06.jpg", .night, Frame.wide4x3, taken: "2024:04:11 22:58:04"),
        photo("night/aurora-01.jpg", .aurora, Frame.wide3x2, taken: "2024:01:16 22:07:51",
              camera: .canon, place: Place.tromso, caption: "Aurora over Kvaloya", shot: Shot.canonAurora),
        photo("night/aurora-02.jpg", .aurora, Frame.wide16x9Large, taken: "2024:01:16 22:19:30", camera: .canon, place: Place.tromso,
              shot: Shot.canonAurora),
        photo("night/aurora-03.jpg", .aurora, Frame.tall2x3, taken: "2024:01:16 22:36:12",
              camera: .phone, place: Place.tromso, orientation: 6,
              shot: Shot(time: .init(1, 3), f: .init(8, 5), iso: 1250, focal: .init(51, 10))),
        photo("night/aurora-04.jpg", .aurora, Frame.square, taken: "2024:01:17 21:50:27"),
        // EXIF with a camera but no date: the grid must sort and label it without one.
        photo("night/aurora-05.jpg", .aurora, Frame.panorama4x1, camera: .canon, shot: Shot.canonAurora),
    ]

    /// Photo sizes (upright width x height) by shape.
    private enum Frame {
        static let wide3x2Small = (1536, 1024), wide3x2 = (1800, 1200), wide3x2Large = (2400, 1600)
        static let wide4x3 = (1600, 1200), wide4x3Large = (2048, 1536)
        static let wide16x9 = (1920, 1080), wide16x9Large = (2560, 1440)
        static let tall2x3Small = (1024, 1536), tall2x3 = (1200, 1800)
        static let tall3x4 = (1200, 1600), tall3x4Large = (1536, 2048)
        static let square = (1200, 1200), squareLarge = (1600, 1600)
        static let panorama3x1 = (3000, 1000), panorama4x1 = (3840, 960)
        /// Full-size camera frames, the largest photogrid must decode without a hitch.
        static let camera12MP3x2 = (4240, 2832), camera12MP4x3 = (4000, 3000)
    }

    /// Where photos were "taken": one in each quarter of the globe, so every N/S and E/W
    /// combination of GPS references appears.
    private enum Place {
        static let tuscany = (43.0766, 11.6797), bled = (46.3636, 14.0938), blackForest = (47.9060, 8.1190)
        static let patagonia = (-49.2713, -73.0431), atacama = (-22.9087, -68.1997)
        static let merzouga = (31.0990, -4.0120), valensole = (43.8370, 5.9830)
        static let laDigue = (-4.3720, 55.8260), santorini = (36.4618, 25.3753), tromso = (69.6492, 18.9553)
    }

    /// Camera and lens names as the makers write them; Nikon writes big-endian ("MM") TIFF, the
    /// others little-endian, and Nikon leaves LensMake out. `daylight` is the shot unless the entry says otherwise.
    private struct Camera {
        var make: String
        var model: String
        var bigEndian = false
        var lensMake: String?
        var lensModel: String
        var daylight: Shot

        static let canon = Camera(make: "Canon", model: "Canon EOS R6", lensMake: "Canon", lensModel: "RF24-105mm F4 L IS USM",
                                  daylight: Shot(time: .init(1, 250), f: .init(80, 10), iso: 100, focal: .init(50, 1)))
        static let nikon = Camera(make: "NIKON CORPORATION", model: "NIKON Z 6_2", bigEndian: true, lensModel: "NIKKOR Z 24-70mm f/4 S",
                                  daylight: Shot(time: .init(1, 320), f: .init(56, 10), iso: 100, focal: .init(35, 1)))
        static let fuji = Camera(make: "FUJIFILM", model: "X-T4", lensMake: "FUJIFILM", lensModel: "XF16-80mmF4 R OIS WR",
                                 daylight: Shot(time: .init(1, 125), f: .init(56, 10), iso: 160, focal: .init(23, 1)))
        static let phone = Camera(make: "Apple", model: "iPhone 13", lensMake: "Apple",
                                  lensModel: "iPhone 13 back dual wide camera 5.1mm f/1.6",
                                  daylight: Shot(time: .init(1, 1000), f: .init(8, 5), iso: 50, focal: .init(51, 10)))
    }

    /// How a photo was exposed, as the Exif sub-IFD says it.
    private struct Shot {
        var time: ExifFields.Rational
        var f: ExifFields.Rational
        var iso: Int
        var focal: ExifFields.Rational

        static let canonSunset = Shot(time: .init(1, 500), f: .init(11, 1), iso: 100, focal: .init(105, 1))
        static let canonAurora = Shot(time: .init(8, 1), f: .init(4, 1), iso: 1600, focal: .init(24, 1))
    }

    /// One entry. With no metadata argument at all the file gets no EXIF.
    private static func photo(_ path: String, _ scene: Scene, _ size: (Int, Int), quality: Int = 88,
                              progressive: Bool = false, taken: String? = nil, camera: Camera? = nil,
                              place: (Double, Double)? = nil, caption: String? = nil, orientation: Int? = nil,
                              thumbnail: Bool = false, shot: Shot? = nil, xmp: String? = nil, iptc: String? = nil,
                              iptcEncoding: IPTCBuilder.Encoding = .utf8) -> SampleEntry {
        let hasMetadata = taken != nil || camera != nil || place != nil || caption != nil || orientation != nil || thumbnail
        let shot = shot ?? camera?.daylight
        let exif = ExifFields(orientation: orientation, dateTimeOriginal: taken, imageDescription: caption,
                              make: camera?.make, model: camera?.model, latitude: place?.0, longitude: place?.1,
                              exposureTime: shot?.time, fNumber: shot?.f, iso: shot?.iso, focalLength: shot?.focal,
                              lensMake: camera?.lensMake, lensModel: camera?.lensModel, bigEndian: camera?.bigEndian ?? false)
        return SampleEntry(path: path, scene: scene, width: size.0, height: size.1, quality: quality,
                           progressive: progressive, exif: hasMetadata ? exif : nil, hasThumbnail: thumbnail,
                           xmpCaption: xmp, iptcCaption: iptc, iptcEncoding: iptcEncoding)
    }
}
