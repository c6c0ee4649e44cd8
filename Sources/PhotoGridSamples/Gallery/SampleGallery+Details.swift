import PhotoGridCore

/// Reading a written gallery back as the details panel does: `JPEGSegments` against libjpeg's
/// view of the same file, and `PhotoInfo` against the plan.
extension SampleGallery {
    static func checkDetails(_ bytes: [UInt8], _ header: JPEG.Header, _ entry: SampleEntry) -> [String] {
        var problems: [String] = []
        func expect(_ ok: Bool, _ problem: @autoclosure () -> String) { if !ok { problems.append(problem()) } }

        // Two readers of the same markers must agree.
        let segments = JPEGSegments.parse(bytes)
        expect(segments.width == header.width && segments.height == header.height,
               "segments say \(String(describing: segments.width))x\(String(describing: segments.height))")
        expect(segments.isProgressive == header.isProgressive, "segments say progressive is \(segments.isProgressive)")
        expect(segments.exif == header.exif, "segments and libjpeg disagree on the Exif segment")
        expect((segments.xmp != nil) == (entry.xmpCaption != nil), "XMP segment \(segments.xmp == nil ? "missing" : "unplanned")")
        expect((segments.iptc != nil) == (entry.iptcCaption != nil), "IPTC data \(segments.iptc == nil ? "missing" : "unplanned")")

        guard let info = PhotoInfo.read(bytes) else { return problems + ["PhotoInfo does not take it for a JPEG"] }
        let planned = entry.exif ?? ExifFields()
        expect(info.width == entry.width && info.height == entry.height,
               "details size \(String(describing: info.width))x\(String(describing: info.height))")
        expect(info.orientation == entry.orientation, "details orientation \(info.orientation)")
        expect(info.dateTaken == planned.dateTimeOriginal, "details date \(info.dateTaken ?? "none")")
        expect(info.make == planned.make && info.model == planned.model, "details camera \(info.make ?? "none") \(info.model ?? "none")")
        expect(info.lens == plannedLens(planned), "lens \(info.lens ?? "none")")
        expect(info.iso == planned.iso, "ISO \(String(describing: info.iso))")
        expect(info.fNumber == planned.fNumber?.value, "f-number \(String(describing: info.fNumber))")
        expect(info.exposureTime == planned.exposureTime?.value, "exposure \(String(describing: info.exposureTime))")
        expect(info.focalLength == planned.focalLength?.value, "focal length \(String(describing: info.focalLength))")
        expect(close(info.latitude, planned.latitude) && close(info.longitude, planned.longitude),
               "details position \(String(describing: info.latitude)), \(String(describing: info.longitude))")
        expect(info.caption == entry.caption?.text && info.captionSource == entry.caption?.source,
               "caption \(info.caption ?? "none") from \(info.captionSource.map { "\($0)" } ?? "nowhere")")
        // Each caption reads back where it was written, even when another one wins.
        if let text = entry.xmpCaption {
            expect(segments.xmp.flatMap(XMPReader.description) == text, "XMP caption reads back wrong")
        }
        if let text = entry.iptcCaption {
            expect(segments.iptc.flatMap(IPTCReader.caption) == text, "IPTC caption reads back wrong")
        }
        return problems
    }

    /// The lens as the panel names it: the model, led by the maker unless the model already is.
    static func plannedLens(_ fields: ExifFields) -> String? {
        guard let model = fields.lensModel else { return nil }
        guard let make = fields.lensMake, !model.hasPrefix(make) else { return model }
        return make + " " + model
    }
}
