import PhotoGridCore

/// Reading a written gallery back with photogrid's own readers, against the plan.
extension SampleGallery {
    /// Every way the gallery in `folder` differs from `entries`, as "path: problem" lines;
    /// empty when all is well. It checks the stored size, baseline or progressive, each EXIF
    /// field as `ExifInfo` reads it, the IFD1 thumbnail, the details as `PhotoInfo` reads them
    /// (lens, exposure, XMP and IPTC captions), and that the pixels, turned upright by their
    /// Orientation tag, show the planned scene.
    package static func check(folder: String) -> [String] {
        var problems: [String] = []
        for entry in entries {
            problems += check(entry, in: folder).map { "\(entry.path): \($0)" }
        }
        return problems
    }

    private static func check(_ entry: SampleEntry, in folder: String) -> [String] {
        let bytes: [UInt8], header: JPEG.Header
        do {
            bytes = try FileReader.read(RawPath(folder + "/" + entry.path))
            header = try JPEG.readHeader(bytes)
        } catch {
            return ["\(error)"]
        }
        var problems: [String] = []
        func expect(_ ok: Bool, _ problem: @autoclosure () -> String) { if !ok { problems.append(problem()) } }

        expect(header.width == entry.storedWidth && header.height == entry.storedHeight,
               "stored \(header.width)x\(header.height), planned \(entry.storedWidth)x\(entry.storedHeight)")
        expect(header.isProgressive == entry.progressive, "progressive is \(header.isProgressive)")
        if let planned = entry.exif {
            guard let tiff = header.exif else { return problems + ["no EXIF"] }
            let info = ExifInfo.parse(tiff)
            expect(info.orientation == entry.orientation, "orientation \(info.orientation)")
            expect(info.dateTimeOriginal == planned.dateTimeOriginal, "date \(info.dateTimeOriginal ?? "none")")
            expect(info.imageDescription == planned.imageDescription, "caption \(info.imageDescription ?? "none")")
            expect(info.make == planned.make && info.model == planned.model, "camera \(info.make ?? "none") \(info.model ?? "none")")
            expect(close(info.latitude, planned.latitude) && close(info.longitude, planned.longitude),
                   "position \(String(describing: info.latitude)), \(String(describing: info.longitude))")
            if let range = info.thumbnail {
                expect(entry.hasThumbnail, "unplanned thumbnail")
                problems += checkThumbnail(Array(tiff[range]), entry)
            } else {
                expect(!entry.hasThumbnail, "no thumbnail")
            }
        } else {
            expect(header.exif == nil, "unplanned EXIF")
        }
        problems += checkDetails(bytes, header, entry)
        problems += checkPicture(bytes, entry)
        return problems
    }

    private static func checkThumbnail(_ bytes: [UInt8], _ entry: SampleEntry) -> [String] {
        do {
            let image = try JPEG.decode(bytes)
            let (width, height) = entry.orientation.displaySize(width: image.width, height: image.height)
            let ratio = Double(width) / Double(height), planned = Double(entry.width) / Double(entry.height)
            guard max(width, height) <= 160, abs(ratio - planned) < 0.05 else {
                return ["thumbnail \(image.width)x\(image.height) does not fit the photo's shape"]
            }
            return []
        } catch {
            return ["thumbnail: \(error)"]
        }
    }

    /// Decodes at 1/8 scale, turns the pixels upright, and compares them with the scene painted
    /// at that size: a photo stored the wrong way up, or showing another scene, differs by far more.
    private static func checkPicture(_ bytes: [UInt8], _ entry: SampleEntry) -> [String] {
        do {
            let small = entry.orientation.apply(to: try JPEG.decode(bytes, options: JPEG.DecodeOptions(scaleEighths: 1)))
            let expected = Scene.render(entry.scene, width: small.width, height: small.height, seed: entry.seed)
            var total = 0
            for i in 0..<small.pixels.count { total += abs(Int(small.pixels[i]) - Int(expected.pixels[i])) }
            let error = Double(total) / Double(max(1, small.pixels.count))
            return error < pictureTolerance ? [] : ["upright pixels differ from the scene by \(error) on average"]
        } catch {
            return ["\(error)"]
        }
    }

    /// Mean difference per channel allowed between a decoded 1/8-scale photo and the scene
    /// painted at that size (JPEG loss and DCT scaling make up most of it).
    static let pictureTolerance = 6.0

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): abs(a - b) < 1e-5          // a hundredth of a second of arc is 2.8e-6 degrees
        default: false
        }
    }
}
