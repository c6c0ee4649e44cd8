import Foundation
import Testing
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The config file: every setting read, a line photogrid cannot read named by its number, and in
/// tmux the columns and a bound key taking effect, the command line winning.
@Suite(.startsPrograms, .serialized) struct ConfigFileTests: PhotogridInTmux {
    @Test func everySettingIsRead() throws {
        let config = try ConfigFile.parse("""
        # photogrid
        columns = 3
        mode = Sixel          # any case
        sort = date
        reverse = yes
        group = month
        fit = true
        opener = gimp -n
        cache-mb = 1024
        disk-cache-mb = 2048
        bind w = right
        bind ctrl-t = trash
        bind space = mark
        """)
        #expect(config.columns == 3 && config.mode == .sixel && config.sort == .date && config.reverse == true && config.group == .month)
        #expect(config.fit == true && config.opener == "gimp -n" && config.cacheMegabytes == 1024 && config.diskCacheMegabytes == 2048)
        #expect(config.bindings == [.character("w"): .right, .control("t"): .character("d"), .character(" "): .character("m")])
        #expect(try ConfigFile.parse("") == ConfigFile())
    }

    @Test(arguments: [
        ("columns = 3\ncolums = 4", "line 2: unknown setting 'colums'"),
        ("columns = 9", "line 1: columns = 9: a whole number from 1 to 6"),
        ("\n\nmode = vt100", "line 3: mode = vt100: auto, kitty, iterm, sixel or halfblock"),
        ("cache-mb = 8", "line 1: cache-mb = 8: a whole number from 16"),
        ("fit", "line 1: 'fit' is not name = value"),
        ("bind ww = right", "line 1: 'ww' is not a key"),
        ("bind w = fly", "line 1: 'fly' is not an action"),
        ("sort =", "line 1: sort has no value"),
    ])
    func aLineItCannotReadIsNamed(text: String, said: String) {
        do {
            _ = try ConfigFile.parse(text)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.description.hasPrefix(said), "\(error.description)")
        }
    }

    static func configHome(_ name: String, _ text: String) -> String {
        let home = TestImages.scratchFolder(name)
        #expect(RawPath(home + "/photogrid").makeDirectories(permissions: 0o700))
        TestImages.write(Array(text.utf8), to: home + "/photogrid/config")
        return home
    }

    @Test func columnsAndABoundKeyTakeEffect() throws {
        let home = Self.configHome("config-keys", "columns = 3\nbind w = right\n")
        defer { TestImages.remove(home) }
        let tmux = try start("'\(Paths.gallery)/landscapes'", environment: ["XDG_CONFIG_HOME": home])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of ") && self.status($0).contains("3 columns") }
        #expect(ok, "\(screen)")
        try tmux.send("w")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of ") }
        #expect(ok, "w moves right: \(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
        // The command line wins.
        let given = try start("--columns 5 '\(Paths.gallery)/landscapes'", environment: ["XDG_CONFIG_HOME": home])
        (ok, screen) = try given.waitFor { self.status($0).contains("5 columns") }
        #expect(ok, "\(screen)")
        try given.send("q")
    }

    @Test func aBrokenConfigRefusesTheStart() throws {
        let home = Self.configHome("config-broken", "columns = 3\ncolums = 4\n")
        defer { TestImages.remove(home) }
        let result = try Subprocess.run([Paths.binary, "--print", Paths.gallery], environment: ["XDG_CONFIG_HOME": home, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 2 && result.errorText.contains("photogrid/config: line 2: unknown setting 'colums'"), "\(result.status) \(result.errorText)")
        #expect(result.output.isEmpty)
    }
}
