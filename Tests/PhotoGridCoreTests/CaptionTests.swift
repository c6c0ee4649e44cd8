import Foundation
import Glibc
import Testing
@testable import PhotoGridMetadata
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Captions edited with `e`, in tmux: typed on the status line, saved in `photo.jpg.xmp` beside
/// the photo, merged into a sidecar that is there, shown first in the details; nothing written
/// with `--read-only`, nothing followed or overwritten that should not be. The photos' bytes
/// never change.
@Suite(.startsPrograms, .serialized) struct CaptionTests: PhotogridInTmux {
    func type(_ text: String, into tmux: Tmux) throws {
        try tmux.run(["send-keys", "-t", tmux.session, "-l", text])
    }

    /// Every photo's checksum (sidecars left out).
    func photoSums(_ root: String) throws -> [UInt8] {
        try Subprocess.run(["sh", "-c", "cd '\(root)' && find . -type f ! -name '*.xmp' -exec md5sum {} + | sort"]).output
    }

    func sidecars(_ root: String) throws -> String {
        String(decoding: try Subprocess.run(["sh", "-c", "cd '\(root)' && find . -name '*.xmp*' | sort"]).output, as: UTF8.self)
    }

    @Test func eSavesACaptionBesideThePhotoAndTheDetailsShowIt() throws {
        let root = try BrowsingTests.makeTree()
        defer { TestImages.remove(root) }
        let before = try photoSums(root)
        // IMG_2.jpg, the second photo, has darktable's sidecar already.
        TestImages.write(Array(MetadataFixtures.darktable.utf8), to: root + "/IMG_2.jpg.xmp")
        let tmux = try start("--columns 3 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok, "no grid: \(screen)")
        try tmux.send("e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption: _") && self.status($0).contains("Enter save  Esc cancel") }
        #expect(ok, "no prompt: \(status(screen))")
        try type("Lake at <dusk> & \"calm\" — été", into: tmux)
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption: Lake at <dusk> & \"calm\" — été_") }
        #expect(ok, "typing: \(status(screen))")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption saved in a-lake.jpg.xmp") }
        #expect(ok, "\(status(screen))")
        let written = try FileReader.read(RawPath(root + "/a-lake.jpg.xmp"))
        #expect(XMPReader.description(written) == "Lake at <dusk> & \"calm\" — été")
        #expect(String(decoding: written, as: UTF8.self).contains("Lake at &lt;dusk&gt; &amp;"))
        try tmux.send("i")
        (ok, screen) = try tmux.waitFor { $0.contains("Lake at <dusk>") && $0.contains("XMP SIDECAR") }
        #expect(ok, "details: \(screen)")

        // Esc leaves it as it was; the prompt starts from the caption there is.
        // Esc alone, its effect waited for: an Esc followed within 25 ms by a key is Alt and that key.
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("XMP SIDECAR") }
        try tmux.send("e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption: Lake at <dusk>") }
        #expect(ok, "\(status(screen))")
        try tmux.send("C-u")
        try type("Something else", into: tmux)
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption not changed") }
        let unchanged = try FileReader.read(RawPath(root + "/a-lake.jpg.xmp"))
        #expect(ok && unchanged == written, "\(status(screen))")

        // Into darktable's sidecar: its properties kept, only the caption added. The prompt starts
        // from the caption in the photo's own XMP, as there is none in the sidecar.
        try tmux.send("l", "e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption: Still water at Lake Bled_") }
        #expect(ok, "\(status(screen))")
        try tmux.send("C-u")
        try type("Second lake", into: tmux)
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption saved in IMG_2.jpg.xmp") }
        #expect(ok, "\(status(screen))")
        let merged = String(decoding: try FileReader.read(RawPath(root + "/IMG_2.jpg.xmp")), as: UTF8.self)
        #expect(XMPReader.description(Array(merged.utf8)) == "Second lake")
        #expect(merged.hasPrefix(String(MetadataFixtures.darktable.prefix(MetadataFixtures.darktable.count - 30))), "darktable's part changed:\n\(merged)")

        // In the photo view too; an empty caption takes it out of the sidecar.
        try tmux.send("Enter", "e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("caption: Second lake_") }
        #expect(ok, "photo view: \(status(screen))")
        try tmux.send("C-u", "Enter")
        (ok, screen) = try tmux.waitFor { $0.contains("caption taken out of IMG_2.jpg.xmp") }
        #expect(ok, "\(screen)")
        let emptied = try FileReader.read(RawPath(root + "/IMG_2.jpg.xmp"))
        #expect(XMPReader.description(emptied) == nil && String(decoding: emptied, as: UTF8.self).contains("darktable:history_end=\"2\""))
        try tmux.send("Q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
        #expect(try photoSums(root) == before, "a photo changed")
        let left = try sidecars(root)
        #expect(left == "./IMG_2.jpg.xmp\n./a-lake.jpg.xmp\n", "stray files: \(left)")
    }

    @Test func readOnlyLinksAndMalformedSidecarsAreNotWritten() throws {
        let root = try BrowsingTests.makeTree()
        let outside = TestImages.scratchFolder("outside")
        defer { TestImages.remove(root); TestImages.remove(outside) }
        let before = try photoSums(root)

        var tmux = try start("--read-only --columns 3 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        try tmux.send("e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("read-only (--read-only): captions are not saved") }
        #expect(ok, "\(status(screen))")
        // The key after the notice moves as usual: no prompt was opened.
        try tmux.send("l")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of 7") }
        #expect(ok, "\(status(screen))")
        #expect(try sidecars(root) == "")

        // a-lake.jpg.xmp links out of the folder; IMG_2.jpg.xmp is cut short.
        let target = outside + "/target.xmp"
        TestImages.write(Array(MetadataFixtures.darktable.utf8), to: target)
        symlink(target, root + "/a-lake.jpg.xmp")
        let cut = Array(MetadataFixtures.darktable.utf8.prefix(250))
        TestImages.write(cut, to: root + "/IMG_2.jpg.xmp")
        tmux = try start("--columns 3 '\(root)'")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        try tmux.send("e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("a-lake.jpg.xmp is a symbolic link: photogrid does not follow it") }
        #expect(ok, "\(status(screen))")
        try tmux.send("l", "e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("IMG_2.jpg.xmp is not XMP photogrid can edit: left as it is") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(try FileReader.read(RawPath(target)) == Array(MetadataFixtures.darktable.utf8))
        #expect(try FileReader.read(RawPath(root + "/IMG_2.jpg.xmp")) == cut)
        #expect(String(cString: realpath(root + "/a-lake.jpg.xmp", nil)) == String(cString: realpath(target, nil)))
        #expect(try photoSums(root) == before)
    }

    @Test func aFolderThatCannotBeWrittenSaysSo() throws {
        let root = try BrowsingTests.makeTree()
        defer { chmod(root, 0o700); TestImages.remove(root) }
        // As root every folder is writable: the test runs photogrid as nobody, for whom the
        // folder (root's, 0755) is read-only; as anyone else the folder is made 0555.
        let asRoot = geteuid() == 0
        chmod(root, asRoot ? 0o755 : 0o555)
        // nobody may not be able to enter the checkout (a clone under a 0700 folder): it runs a
        // copy of the binary from a folder of its own.
        let binFolder = TestImages.scratchFolder("bin")
        defer { TestImages.remove(binFolder) }
        chmod(binFolder, 0o755)
        // Copied by cp, not from this process: a child another test forks meanwhile would inherit
        // a descriptor open for writing on it, and running it would fail with "Text file busy".
        let copied = try Subprocess.run(["cp", Paths.binary, binFolder + "/photogrid"])
        #expect(copied.status == 0)
        let prefix = asRoot ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let tmux = try Tmux(columns: 120, rows: 30, command: prefix + "\(binFolder)/photogrid --mode halfblock --no-disk-cache --columns 3 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok, "no grid: \(screen)")
        try tmux.send("e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("cannot write in ") && self.status($0).contains("Permission denied") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(try sidecars(root) == "")
    }
}
