import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridSystem
import PhotoGridTerminal

/// `$XDG_CONFIG_HOME/photogrid/config` (else `~/.config/photogrid/config`): the defaults a user
/// wants every run, and keys bound to actions, one `name = value` a line, `#` comments, as feh's
/// and imv's files are. The command line wins over it, `PHOTOGRID_MODE` and `PHOTOGRID_OPENER`
/// too. A line photogrid cannot read is named with its number and the start is refused: a
/// setting silently not taken is worse than a word.
///
///     columns = 3
///     mode = sixel            # auto, kitty, iterm, sixel, halfblock
///     sort = date             # name, date, mtime, size
///     reverse = true
///     group = month           # none, folder, day, month, year
///     fit = true
///     opener = gimp
///     cache-mb = 1024
///     disk-cache-mb = 2048
///     bind D = trash          # a key (a character, ctrl-x, enter, space) and an action's name
package struct ConfigFile: Equatable, Sendable {
    package var columns: Int?
    package var mode: ModeChoice?
    package var sort: PhotoOrder.Key?
    package var reverse: Bool?
    package var group: Grouping?
    package var fit: Bool?
    package var opener: String?
    package var cacheMegabytes: Int?
    package var diskCacheMegabytes: Int?
    package var stacks: Bool?
    /// A key pressed, and the key of the action it is bound to (`actions`).
    package var bindings: [Key: Key] = [:]

    package init() {}

    package struct Problem: Error, CustomStringConvertible, Equatable {
        package let line: Int
        package let message: String
        package var description: String { "line \(line): \(message)" }
    }

    /// Where the file is looked for.
    package static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/photogrid/config" }
        return environment["HOME"].map { $0 + "/.config/photogrid/config" }
    }

    /// The actions keys can be bound to, by name, and the grid's key for each: a bound key
    /// does what that key does, wherever it does it (the grid, the photo view, compare).
    package static let actions: [String: Key] = [
        "left": .left, "right": .right, "up": .up, "down": .down, "page-down": .pageDown, "page-up": .pageUp,
        "half-down": .control("d"), "half-up": .control("u"), "first": .home, "last": .end,
        "open": .enter, "fewer-columns": .character("+"), "more-columns": .character("-"), "fit": .character("a"),
        "details": .character("i"), "find": .character("/"), "sort": .character("s"), "reverse": .character("r"),
        "sections": .character("S"), "hidden": .character("."), "mark": .character("m"), "mark-all": .character("M"),
        "open-with": .character("o"), "copy-path": .character("y"), "caption": .character("e"), "rate": .character("R"),
        "reject": .character("x"), "label": .character("L"), "keywords": .character("t"), "rating-filter": .character("f"),
        "filter": .character("\\"), "trash": .character("d"), "undo": .character("u"), "copy-to": .character("C"), "move-to": .character("V"), "stack": .control("i"), "rotate-left": .character("["), "rotate-right": .character("]"), "compare": .character("c"),
        "redraw": .control("l"), "rescan": .control("r"), "help": .character("?"), "quit": .character("q"),
    ]

    package static func parse(_ text: String) throws(Problem) -> ConfigFile {
        var config = ConfigFile()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            var line = String(raw)
            if let hash = line.firstIndex(of: "#") { line = String(line[..<hash]) }
            line = line.trimmingWhitespace
            guard !line.isEmpty else { continue }
            guard let equals = line.firstIndex(of: "=") else { throw Problem(line: lineNumber, message: "'\(line)' is not name = value") }
            let name = String(line[..<equals]).trimmingWhitespace, value = String(line[line.index(after: equals)...]).trimmingWhitespace
            guard !value.isEmpty else { throw Problem(line: lineNumber, message: "\(name) has no value") }
            func choice<T: RawRepresentable>(_ type: T.Type, _ names: String) throws(Problem) -> T where T.RawValue == String {
                guard let chosen = T(rawValue: value.lowercased()) else { throw Problem(line: lineNumber, message: "\(name) = \(value): \(names)") }
                return chosen
            }
            func number(in range: ClosedRange<Int>) throws(Problem) -> Int {
                guard let n = Int(value), range.contains(n) else {
                    throw Problem(line: lineNumber, message: "\(name) = \(value): a whole number from \(range.lowerBound)"
                                  + (range.upperBound == Int.max ? "" : " to \(range.upperBound)"))
                }
                return n
            }
            func flag() throws(Problem) -> Bool {
                switch value.lowercased() {
                case "true", "yes", "on": return true
                case "false", "no", "off": return false
                default: throw Problem(line: lineNumber, message: "\(name) = \(value): true or false")
                }
            }
            switch name {
            case "columns": config.columns = try number(in: 1...6)
            case "mode": config.mode = try choice(ModeChoice.self, "auto, kitty, iterm, sixel or halfblock")
            case "sort": config.sort = try choice(PhotoOrder.Key.self, "name, date, mtime or size")
            case "reverse": config.reverse = try flag()
            case "group": config.group = try choice(Grouping.self, "none, folder, day, month or year")
            case "fit": config.fit = try flag()
            case "stacks": config.stacks = try flag()
            case "opener": config.opener = value
            case "cache-mb": config.cacheMegabytes = try number(in: 16...Int.max)
            case "disk-cache-mb": config.diskCacheMegabytes = try number(in: 1...Int.max)
            default:
                guard name.hasPrefix("bind ") else { throw Problem(line: lineNumber, message: "unknown setting '\(name)'") }
                let keyName = String(name.dropFirst(5)).trimmingWhitespace
                guard let key = key(keyName) else {
                    throw Problem(line: lineNumber, message: "'\(keyName)' is not a key (a character, ctrl-x, enter, space)")
                }
                guard let action = actions[value.lowercased()] else {
                    throw Problem(line: lineNumber, message: "'\(value)' is not an action (\(actions.keys.sorted().joined(separator: ", ")))")
                }
                config.bindings[key] = action
            }
        }
        return config
    }

    /// "D", "ctrl-x", "enter", "space", "tab" as the key the terminal sends.
    static func key(_ name: String) -> Key? {
        switch name.lowercased() {
        case "enter", "return": return .enter
        case "space": return .character(" ")
        case "tab": return .control("i")
        case "backspace": return .backspace
        default: break
        }
        if name.lowercased().hasPrefix("ctrl-"), name.count == 6, let letter = name.last?.lowercased().first, letter.isLetter {
            return .control(letter)
        }
        return name.count == 1 ? .character(name.first!) : nil
    }

    /// Reads the file at `path`: none there is no settings; one that cannot be read or parsed
    /// is an error that names it.
    package static func load(_ path: String) throws(ExitError) -> ConfigFile {
        let file = RawPath(path)
        guard file.status() != nil else { return ConfigFile() }
        let bytes: [UInt8]
        do {
            let descriptor = try FileDescriptor.open(file, .read)
            defer { try? descriptor.close() }
            bytes = try descriptor.readToEnd(limit: 1 << 20)
        } catch {
            throw ExitError("\(path): cannot read the config file (\(error))", status: 2)
        }
        do { return try parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw ExitError("\(path): \(error)", status: 2)
        }
    }
}
