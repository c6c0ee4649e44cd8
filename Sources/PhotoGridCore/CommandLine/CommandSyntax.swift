/// What a command accepts on its line: its arguments and options, with the help for each. The
/// three commands (the browser, `serve`, `export`) are tables of these in the executable; parsing
/// them is plain code with no reflection, which swift-argument-parser spent 3-4 ms of every start
/// on (docs/decisions.md, "The command line without swift-argument-parser").
package struct CommandSyntax: Sendable {
    /// "photogrid", or "photogrid serve": how the help and the errors name the command.
    package var name: String
    /// The first paragraph of the help.
    package var overview: String
    /// Paragraphs after it, each on its own (blank lines between them).
    package var discussion: [String] = []
    /// The usage line; by default the command's name, `[<options>]` and its arguments.
    package var usage: String?
    package var arguments: [CommandArgument] = []
    package var options: [CommandOption] = []
    /// The text `--version` prints; nil: no `--version`.
    package var version: String?

    package init(name: String, overview: String, discussion: [String] = [], usage: String? = nil,
                 arguments: [CommandArgument] = [], options: [CommandOption] = [], version: String? = nil) {
        self.name = name
        self.overview = overview
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.version = version
    }

    package var usageLine: String {
        usage ?? ([name, "[<options>]"] + arguments.map { $0.optional ? "[<\($0.name)>]" : "<\($0.name)>" }).joined(separator: " ")
    }

    /// The option one of whose names is `name` ("--columns", "-o").
    package func option(named name: String) -> CommandOption? {
        options.first { $0.names.contains(name) }
    }
}

/// A word of the command line that is not an option: a folder, a URL.
package struct CommandArgument: Sendable {
    package var name: String
    package var help: String
    package var optional: Bool

    package init(_ name: String, optional: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.optional = optional
    }
}

/// An option: a flag (`--fit`, `-o`) or one that takes a value (`--columns 4`, `--columns=4`).
package struct CommandOption: Sendable {
    /// Long names with "--", short ones with "-"; the first is the option's key in a parse.
    package var names: [String]
    /// What the help calls the value ("columns" shows as `<columns>`); nil for a flag.
    package var value: String?
    package var help: String
    /// Shown after the help as "(default: ...)".
    package var defaultText: String?
    /// The values the option takes, when they are a fixed set; shown as "(values: ...)" and the
    /// only ones `choice` accepts.
    package var choices: [String]

    package static func flag(_ names: String..., help: String) -> CommandOption {
        CommandOption(names: names, value: nil, help: help, defaultText: nil, choices: [])
    }

    package static func value(_ names: String..., value: String? = nil, default defaultText: String? = nil,
                               choices: [String] = [], help: String) -> CommandOption {
        let long = names.first { $0.hasPrefix("--") } ?? names[0]
        return CommandOption(names: names, value: value ?? String(long.drop { $0 == "-" }), help: help,
                             defaultText: defaultText, choices: choices)
    }

    package var key: String { names[0] }
    package var takesValue: Bool { value != nil }
    /// "--columns <columns>", "-o": the option as the help and the errors write it.
    package var label: String { names.joined(separator: ", ") + (value.map { " <\($0)>" } ?? "") }
}

/// Why a command line cannot be run as given; `option` is the one it is about, if any, whose
/// help is shown with the message.
package struct CommandLineError: Error, Sendable, Equatable {
    package var message: String
    package var option: String?

    package init(_ message: String, option: String? = nil) {
        self.message = message
        self.option = option
    }
}

/// What a command line asks for.
package enum CommandRequest: Sendable {
    case run(ParsedCommandLine)
    case help
    case version
}

/// The options and arguments of one command line, by the options' keys.
package struct ParsedCommandLine: Sendable {
    package let syntax: CommandSyntax
    package fileprivate(set) var flags: Set<String> = []
    /// The last value given for each option (`--columns 3 --columns 4` is 4, as in most tools).
    package fileprivate(set) var values: [String: String] = [:]
    package fileprivate(set) var arguments: [String] = []

    package func flag(_ key: String) -> Bool { flags.contains(key) }
    package func string(_ key: String) -> String? { values[key] }

    /// A whole number, when given ("-5" too: limits are the command's to check, with its words).
    package func int(_ key: String) throws(CommandLineError) -> Int? {
        guard let text = values[key] else { return nil }
        guard let number = Int(text) else { throw CommandLineError("\(key) takes a whole number, not '\(text)'", option: key) }
        return number
    }

    /// One of the option's choices, as the type made from it.
    package func choice<Value: RawRepresentable>(_ key: String, as type: Value.Type) throws(CommandLineError) -> Value?
    where Value.RawValue == String {
        guard let text = values[key] else { return nil }
        guard let value = Value(rawValue: text) else {
            let choices = syntax.option(named: key)?.choices ?? []
            throw CommandLineError("\(key) takes \(CommandSyntax.list(choices)), not '\(text)'", option: key)
        }
        return value
    }

    /// The argument at `index` (in the syntax's order), when given.
    package func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }
}

extension CommandSyntax {
    /// "a, b or c".
    package static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// Reads `words` (the command line after the command's name). `-h`/`--help` anywhere before
    /// `--` asks for the help, whatever else is wrong, as in most tools; then `--version`.
    package func parse(_ words: [String]) throws(CommandLineError) -> CommandRequest {
        let beforeDashes = words.prefix { $0 != "--" }
        if beforeDashes.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        if version != nil, beforeDashes.contains("--version") { return .version }
        var parsed = ParsedCommandLine(syntax: self)
        var index = 0
        var onlyArguments = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyArguments || word == "-" || !word.hasPrefix("-") {
                guard parsed.arguments.count < arguments.count else { throw CommandLineError("Unexpected argument '\(word)'") }
                parsed.arguments.append(word)
            } else if word == "--" {
                onlyArguments = true
            } else if word.hasPrefix("--") {
                let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let option = option(named: String(parts[0])) else { throw CommandLineError("Unknown option '\(parts[0])'") }
                if parts.count == 2 {
                    guard option.takesValue else {
                        throw CommandLineError("\(option.key) takes no value, but '\(parts[1])' was given", option: option.key)
                    }
                    // No option takes an empty value: `--host=` is not every address.
                    guard !parts[1].isEmpty else { throw CommandLineError("Missing value for '\(option.label)'", option: option.key) }
                    parsed.values[option.key] = String(parts[1])
                } else {
                    try take(option, from: words, at: &index, into: &parsed)
                }
            } else {
                // Short options, one or several together: "-o", "-o0".
                for letter in word.dropFirst() {
                    guard let option = option(named: "-\(letter)") else { throw CommandLineError("Unknown option '-\(letter)'") }
                    try take(option, from: words, at: &index, into: &parsed)
                }
            }
        }
        if let missing = arguments.dropFirst(parsed.arguments.count).first(where: { !$0.optional }) {
            throw CommandLineError("Missing expected argument '<\(missing.name)>'")
        }
        return .run(parsed)
    }

    /// A flag is set; an option with a value takes the next word, unless there is none, it is
    /// empty, or it is one of the command's options: `--url --print` is a missing URL, not a URL named
    /// "--print". Any other word is the value, dash or not: `--filter -is:raw` (a term turned
    /// round), `--cache-mb -5` (a number the command refuses by its limit), `--files -` (stdin).
    private func take(_ option: CommandOption, from words: [String], at index: inout Int, into parsed: inout ParsedCommandLine) throws(CommandLineError) {
        guard option.takesValue else {
            parsed.flags.insert(option.key)
            return
        }
        guard index < words.count, !words[index].isEmpty, !isOption(words[index]) else {
            throw CommandLineError("Missing value for '\(option.label)'", option: option.key)
        }
        parsed.values[option.key] = words[index]
        index += 1
    }

    /// `word` read as options: one of the long names (with a value after "=" or not), a
    /// cluster of short ones, `--`, help or version.
    private func isOption(_ word: String) -> Bool {
        if ["--", "-h", "--help", "--version"].contains(word) { return true }
        if word.hasPrefix("--") { return option(named: String(word.prefix { $0 != "=" })) != nil }
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return word.dropFirst().allSatisfy { option(named: "-\($0)") != nil }
    }
}
