/// The help a command prints for `--help`, and the lines under an error: sections in the form
/// swift-argument-parser gave them (OVERVIEW, USAGE, ARGUMENTS, OPTIONS), which the man page
/// and the shell completions are made from (scripts/package-docs.py), wrapped to 80 columns.
extension CommandSyntax {
    /// Lines are at most this wide (short of 80, where some terminals wrap at once); an
    /// option's help starts at `helpColumn`.
    static let width = 79
    static let helpColumn = 26

    package var help: String {
        var text = CommandSyntax.wrap("OVERVIEW: " + overview, width: CommandSyntax.width) + "\n"
        for paragraph in discussion {
            text += "\n" + CommandSyntax.wrap(paragraph, width: CommandSyntax.width) + "\n"
        }
        text += "\nUSAGE: \(usageLine)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += CommandSyntax.entry("<\(argument.name)>", argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options { text += CommandSyntax.entry(option.label, option.fullHelp) }
        if version != nil { text += CommandSyntax.entry("--version", "Show the version.") }
        text += CommandSyntax.entry("-h, --help", "Show help information.")
        return text
    }

    /// What follows an error's message: the option's help when it is about one, then the usage.
    package func errorFooter(for error: CommandLineError) -> String {
        var text = ""
        if let key = error.option, let option = option(named: key) {
            text += "Help:  \(option.label)  \(option.help)\n"
        }
        return text + "Usage: \(usageLine)\n  See '\(name) --help' for more information."
    }

    /// "  label    help..." with the help wrapped under itself; a label too long for the column
    /// has its help start on the next line.
    static func entry(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        let lines = wrap(help, width: width - helpColumn).split(separator: "\n", omittingEmptySubsequences: false)
        var text = "  " + label
        if text.count < helpColumn {
            text += String(repeating: " ", count: helpColumn - text.count) + (lines.first ?? "")
        } else {
            text += "\n" + indent + (lines.first ?? "")
        }
        for line in lines.dropFirst() { text += "\n" + indent + line }
        return text + "\n"
    }

    /// `text`'s words in lines of at most `width` characters (a longer word alone on its line).
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension CommandOption {
    /// The help with the values and the default after it.
    var fullHelp: String {
        var text = help
        if !choices.isEmpty { text += " (values: \(choices.joined(separator: ", ")))" }
        if let defaultText { text += " (default: \(defaultText))" }
        return text
    }
}
