import Testing
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures

@Suite struct IPTCTests {
    @Test func utf8AndLatin1CaptionsDecode() {
        #expect(IPTCReader.caption(IPTCBuilder.iim(caption: "夕焼け, Blick über den Bodensee")) == "夕焼け, Blick über den Bodensee")
        let latin1 = IPTCBuilder.iim(caption: "Vía Láctea, Grüße", encoding: .latin1)
        #expect(latin1.contains(0xED) && !latin1.contains(0xC3))          // í as one byte, not UTF-8
        #expect(IPTCReader.caption(latin1) == "Vía Láctea, Grüße")
        // UTF-8 without the 1:90 marker is still taken for UTF-8: the bytes are valid as such.
        #expect(IPTCReader.caption(IPTCBuilder.dataset(record: 2, number: 120, Array("naïve".utf8))) == "naïve")
        #expect(IPTCReader.caption(IPTCBuilder.dataset(record: 2, number: 120, [0x41, 0xFF, 0x42])) == "A\u{FF}B")
    }

    @Test func theCaptionIsFoundAmongOtherDatasets() {
        // Keywords, a byline, then the caption; and a 40 KB dataset in the extended-length form before it.
        let others = IPTCBuilder.dataset(record: 2, number: 25, Array("sea".utf8))
            + IPTCBuilder.dataset(record: 2, number: 80, Array("A. Person".utf8))
            + IPTCBuilder.dataset(record: 2, number: 202, [UInt8](repeating: 7, count: 40_000))
        #expect(others.contains(0x80))
        #expect(IPTCReader.caption(others + IPTCBuilder.dataset(record: 2, number: 120, Array("Found".utf8))) == "Found")
        #expect(IPTCReader.caption(others) == nil)
        // A caption in the extended form itself is read, and cut to 2,000 characters.
        let long = IPTCBuilder.dataset(record: 2, number: 120, [UInt8](repeating: 0x61, count: 33_000))
        #expect(IPTCReader.caption(long) == String(repeating: "a", count: 2000))
        // Record 1 dataset 120 is not the caption.
        #expect(IPTCReader.caption(IPTCBuilder.dataset(record: 1, number: 120, Array("no".utf8))) == nil)
    }

    @Test func hostileDataYieldsNothing() {
        let caption = IPTCBuilder.dataset(record: 2, number: 120, Array("Caption".utf8))
        // A length past the end, in both forms.
        #expect(IPTCReader.caption([0x1C, 2, 120, 0x7F, 0xFF] + Array("short".utf8)) == nil)
        #expect(IPTCReader.caption([0x1C, 2, 120, 0x80, 0x04, 0xFF, 0xFF, 0xFF, 0xFF] + Array("short".utf8)) == nil)
        // Extended lengths of 0 bytes or more than 4, and one whose length bytes are cut off.
        #expect(IPTCReader.caption([0x1C, 2, 120, 0x80, 0x00] + caption) == nil)
        #expect(IPTCReader.caption([0x1C, 2, 120, 0x80, 0x05, 0, 0, 0, 0, 1, 0x41]) == nil)
        #expect(IPTCReader.caption([0x1C, 2, 120, 0x80, 0x04, 0]) == nil)
        // Something other than a dataset before the caption ends the run.
        #expect(IPTCReader.caption([0x00] + caption) == nil)
        #expect(IPTCReader.caption(IPTCBuilder.dataset(record: 2, number: 0, [0, 4]) + [0x1B] + caption) == nil)
        // Padding after the last dataset is fine.
        #expect(IPTCReader.caption(caption + [0, 0, 0]) == "Caption")
        // Empty and all-space captions are none.
        #expect(IPTCReader.caption(IPTCBuilder.dataset(record: 2, number: 120, [])) == nil)
        #expect(IPTCReader.caption(IPTCBuilder.dataset(record: 2, number: 120, [0x20, 0x20, 0])) == nil)
        // Every prefix: the whole caption or nothing.
        let whole = IPTCBuilder.iim(caption: "Ganz über")
        for length in 0...whole.count {
            let text = IPTCReader.caption(Array(whole.prefix(length)))
            #expect(text == nil || (text == "Ganz über" && length == whole.count), "cut at \(length)")
        }
        // Random bytes behind a marker.
        var random = SeededGenerator(seed: 0x1C)
        for _ in 0..<2000 {
            let bytes = [0x1C] + (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = IPTCReader.caption(bytes)
        }
    }
}
