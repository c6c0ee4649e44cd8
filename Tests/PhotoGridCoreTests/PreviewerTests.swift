import Foundation
import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The previewer recipes in the README, run as written at a pane's size: the contact sheet
/// fits the pane, lines and cells.
@Suite(.startsPrograms) struct PreviewerTests {
    /// Lines of the output, and the most cells a line takes (escape sequences not counted).
    static func measure(_ output: [UInt8]) -> (lines: Int, widest: Int) {
        let text = String(decoding: output, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let widest = lines.map { line -> Int in
            var cells = 0, inEscape = false
            for scalar in line.unicodeScalars {
                if inEscape { if scalar == "m" { inEscape = false }; continue }
                if scalar == "\u{1B}" { inEscape = true; continue }
                cells += 1
            }
            return cells
        }.max() ?? 0
        return (lines.count, widest)
    }

    @Test func fzfsPreviewLineFitsItsPane() throws {
        let photo = Paths.gallery + "/landscapes/autumn-01.jpg"
        let binary = (Paths.binary as NSString).deletingLastPathComponent
        let result = try Subprocess.run(["/bin/sh", "-c", "echo '\(photo)' | while read -r f; do photogrid --mode halfblock --print --size ${FZF_PREVIEW_COLUMNS}x${FZF_PREVIEW_LINES} \"$f\"; done"],
                                        environment: ["PATH": binary + ":/usr/bin:/bin", "FZF_PREVIEW_COLUMNS": "37", "FZF_PREVIEW_LINES": "13",
                                                      "COLORTERM": "truecolor"])
        #expect(result.status == 0, "\(result.errorText)")
        let (lines, widest) = Self.measure(result.output)
        #expect(lines >= 1 && lines <= 13 && widest <= 37 && widest > 10, "\(lines) lines, \(widest) cells")
    }

    @Test func lfsPreviewerScriptFitsItsPane() throws {
        let folder = TestImages.scratchFolder("lf-previewer")
        defer { TestImages.remove(folder) }
        let script = folder + "/preview"
        try TestImages.writeScript(script, """
        #!/bin/sh
        case "$1" in
          *.jpg|*.jpeg|*.png|*.webp|*.heic|*.avif|*.jxl|*.tif|*.tiff|*.gif|*.nef|*.cr2|*.cr3|*.arw|*.dng|*.raf)
            photogrid --print --mode halfblock --size "$2x$3" "$1"; exit 1 ;;
        esac
        """)
        let binary = (Paths.binary as NSString).deletingLastPathComponent
        let result = try Subprocess.run([script, Paths.gallery + "/landscapes/autumn-02.jpg", "50", "20", "0", "0"],
                                        environment: ["PATH": binary + ":/usr/bin:/bin", "COLORTERM": "truecolor"])
        #expect(result.status == 1, "lf's 'do not cache': \(result.errorText)")
        let (lines, widest) = Self.measure(result.output)
        #expect(lines >= 1 && lines <= 20 && widest <= 50 && widest > 10, "\(lines) lines, \(widest) cells")
    }
}
