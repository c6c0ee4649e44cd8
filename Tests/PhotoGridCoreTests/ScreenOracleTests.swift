import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Random key walks played on a model terminal, every cell checked against the layout
/// (`ScreenOracle`): sixel as xterm and Konsole 22.12 show it, kitty's protocol, half-blocks.
/// Seeded, so a finding is the same on every run; `photogrid-bench oracle` walks longer, the
/// fast run shorter (60 keys: each walk is 11 s of a debug build's CPU at 300). Then the cases
/// users met, each played as it was met.
@Suite struct ScreenOracleTests {
    static let keys = FastRun.isOn ? 60 : 300
    static let walks: [ScreenOracle.Walk] = [
        ScreenOracle.Walk(kind: .xterm, photos: 18, seed: 1, keys: keys),
        ScreenOracle.Walk(kind: .konsole, photos: 37, seed: 2, keys: keys),
        ScreenOracle.Walk(kind: .kitty, photos: 23, seed: 3, keys: keys),
        ScreenOracle.Walk.halfBlock(photos: 41, seed: 4, keys: keys),
    ]

    @Test(arguments: walks) func everyCellShowsWhatTheLayoutSays(_ walk: ScreenOracle.Walk) {
        var oracle = ScreenOracle(walk)
        let findings = oracle.run()
        #expect(findings.isEmpty, "\(walk.name): \(findings.first.map(\.description) ?? "")")
        #expect(oracle.framesChecked > walk.keys, "\(walk.name): only \(oracle.framesChecked) frames")
    }

    static func scripted(_ kind: ModelTerminal.Kind, photos: Int, columns: Int, _ keys: String, halfBlock: Bool = false) -> [ScreenOracle.Finding] {
        var walk = halfBlock ? ScreenOracle.Walk.halfBlock(photos: photos, seed: 0, keys: 0) : ScreenOracle.Walk(kind: kind, photos: photos, seed: 0, keys: 0)
        walk.startColumns = columns
        walk.script = keys.split(separator: " ").map(String.init)
        var oracle = ScreenOracle(walk)
        return oracle.run()
    }

    /// xterm, 18 photos at 4 columns: from the last photo of a full row, Right into the short last
    /// row. The grid scrolls; the empty slot at the end kept a copy of the photo framed before.
    @Test func aShortLastRowLeavesNoPictureInItsEmptySlots() {
        let findings = Self.scripted(.xterm, photos: 18, columns: 4, "Down Down Down Right Right Right Right")
        #expect(findings.isEmpty, "\(findings.first.map(\.description) ?? "")")
    }

    /// Konsole in sixel, PgDn to the end: Konsole keeps a sixel picture under erased cells.
    @Test func konsoleShowsNothingWhereTheGridLeftCellsEmpty() {
        let findings = Self.scripted(.konsole, photos: 18, columns: 4, "PgDn PgDn PgDn End g End")
        #expect(findings.isEmpty, "\(findings.first.map(\.description) ?? "")")
    }

    /// xterm paging: each picture written is checked the moment it is written, so an old one
    /// left under the frame while the new ones arrive is caught.
    @Test func pagingNeverShowsAnotherPhotoWhileTheNewScreenArrives() {
        let findings = Self.scripted(.xterm, photos: 37, columns: 4, "PgDn PgDn PgUp j j j PgDn")
        #expect(findings.isEmpty, "\(findings.first.map(\.description) ?? "")")
    }

    /// kitty: the focus in the top row with the details open, and the help: the frame stays off
    /// the panel, and tiles the panel covers in part show the rest.
    @Test func kittyPanelsCutPicturesAndTheFrameGivesWay() {
        for keys in ["l l i", "l l l ?", "2 i", "j j l i Esc ?"] {
            let findings = Self.scripted(.kitty, photos: 23, columns: 4, keys)
            #expect(findings.isEmpty, "\(keys): \(findings.first.map(\.description) ?? "")")
        }
    }

    /// Sections: the frame goes round a photo whose row has a header above or below it without
    /// running through the header's line.
    @Test func theFrameNeverRunsThroughAHeaderLine() {
        for halfBlock in [false, true] {
            let findings = Self.scripted(.xterm, photos: 23, columns: 4, "S j j j l S j j S j", halfBlock: halfBlock)
            #expect(findings.isEmpty, "\(halfBlock ? "half-blocks" : "sixel"): \(findings.first.map(\.description) ?? "")")
        }
    }
}
