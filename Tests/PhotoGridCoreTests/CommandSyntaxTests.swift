import Testing
@testable import PhotoGridCore

/// The command-line parser the three commands share: what it reads from each form of option, what
/// it refuses with which words, and help that keeps every word within 79 columns.
@Suite struct CommandSyntaxTests {
    enum Shape: String { case round, square }

    let syntax = CommandSyntax(
        name: "tool", overview: "Does a thing.",
        arguments: [CommandArgument("folder", help: "Where."), CommandArgument("out", optional: true, help: "Where to.")],
        options: [
            .value("--count", default: "6", help: "How many."),
            .value("--shape", choices: ["round", "square"], help: "Which shape."),
            .value("--files", value: "file", help: "A list."),
            .flag("--fit", help: "Fit."),
            .flag("-o", help: "Paths out."),
            .flag("-0", help: "Paths out with NULs."),
        ],
        version: "tool 1.0")

    func run(_ words: [String]) throws(CommandLineError) -> ParsedCommandLine {
        guard case .run(let line) = try syntax.parse(words) else { throw CommandLineError("not a run") }
        return line
    }

    func refusal(_ words: [String]) -> CommandLineError? {
        do { _ = try run(words); return nil } catch { return error }
    }

    @Test func eachFormOfOptionIsRead() throws {
        let line = try run(["--count", "3", "pics", "--shape=square", "-o0", "--fit", "--files", "-", "--count=-5"])
        #expect(line.arguments == ["pics"])
        #expect(try line.int("--count") == -5, "the last value given wins, and a negative number is a value")
        #expect(try line.choice("--shape", as: Shape.self) == .square)
        #expect(line.string("--files") == "-", "a lone dash is a value (stdin)")
        #expect(line.flag("--fit") && line.flag("-o") && line.flag("-0"))
        #expect(line.argument(1) == nil)
    }

    /// A value that starts with a dash but is none of the options is a value: a filter's term
    /// turned round, a number below zero, a name.
    @Test func aWordThatIsNoOptionIsAValueDashOrNot() throws {
        let line = try run(["a", "--files", "-is:raw", "--count", "-x"])
        #expect(line.string("--files") == "-is:raw")
        #expect(throws: CommandLineError("--count takes a whole number, not '-x'", option: "--count")) { try line.int("--count") }
        #expect(refusal(["a", "--files", "--count=3"]) == CommandLineError("Missing value for '--files <file>'", option: "--files"))
        #expect(refusal(["a", "--files", "--"]) == CommandLineError("Missing value for '--files <file>'", option: "--files"))
        #expect(try run(["a", "--files", "--nothing"]).string("--files") == "--nothing")
    }

    @Test func aDoubleDashEndsTheOptions() throws {
        let line = try run(["--", "--fit", "-o"])
        #expect(line.arguments == ["--fit", "-o"])
        #expect(!line.flag("--fit") && !line.flag("-o"))
    }

    @Test func helpAndVersionWinOverEverythingElseBeforeADoubleDash() throws {
        guard case .help = try syntax.parse(["--bogus", "-h"]) else { Issue.record("-h after a bad option"); return }
        guard case .help = try syntax.parse(["x", "--help", "--count"]) else { Issue.record("--help"); return }
        guard case .version = try syntax.parse(["--version", "x", "y", "z"]) else { Issue.record("--version"); return }
        let line = try run(["a", "--", "--help"])
        #expect(line.arguments == ["a", "--help"], "after --, --help is a name")
    }

    @Test func eachMistakeIsNamed() {
        #expect(refusal(["--bogus"]) == CommandLineError("Unknown option '--bogus'"))
        #expect(refusal(["-ox"]) == CommandLineError("Unknown option '-x'"))
        #expect(refusal(["a", "b", "c"]) == CommandLineError("Unexpected argument 'c'"))
        #expect(refusal(["--fit"]) == CommandLineError("Missing expected argument '<folder>'"))
        #expect(refusal(["a", "--count"]) == CommandLineError("Missing value for '--count <count>'", option: "--count"))
        #expect(refusal(["a", "--files", "--fit"]) == CommandLineError("Missing value for '--files <file>'", option: "--files"),
                "an option after an option is not its value")
        #expect(refusal(["a", "--files", "-o0"]) == CommandLineError("Missing value for '--files <file>'", option: "--files"),
                "short flags together are options too")
        #expect(refusal(["a", "--files="]) == CommandLineError("Missing value for '--files <file>'", option: "--files"),
                "an empty value is none")
        #expect(refusal(["a", "--files", ""]) == CommandLineError("Missing value for '--files <file>'", option: "--files"))
        #expect(refusal(["a", "--fit=yes"]) == CommandLineError("--fit takes no value, but 'yes' was given", option: "--fit"))
    }

    @Test func valuesOfTheWrongKindAreNamedWithWhatIsTaken() throws {
        let line = try run(["a", "--count", "many", "--shape", "oval"])
        #expect(throws: CommandLineError("--count takes a whole number, not 'many'", option: "--count")) { try line.int("--count") }
        #expect(throws: CommandLineError("--shape takes round or square, not 'oval'", option: "--shape")) {
            try line.choice("--shape", as: Shape.self)
        }
        #expect(CommandSyntax.list(["a", "b", "c"]) == "a, b or c" && CommandSyntax.list(["a"]) == "a")
    }

    @Test func anErrorShowsTheOptionsHelpAndTheUsage() {
        let footer = syntax.errorFooter(for: CommandLineError("x", option: "--count"))
        #expect(footer == "Help:  --count <count>  How many.\nUsage: tool [<options>] <folder> [<out>]\n  See 'tool --help' for more information.")
        #expect(!syntax.errorFooter(for: CommandLineError("x")).contains("Help:"))
    }

    @Test func helpKeepsEveryWordWithin79Columns() {
        var long = syntax
        long.overview = String(repeating: "word ", count: 40) + "end."
        long.discussion = ["A second paragraph " + String(repeating: "longer-words ", count: 20)]
        long.options.append(.value("--a-very-long-option-name", help: String(repeating: "lorem ", count: 30)))
        let help = long.help
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 79 }, "\(help)")
        #expect(help.contains("  --count <count>         How many. (default: 6)\n"))
        #expect(help.contains("  --shape <shape>         Which shape. (values: round, square)\n"))
        #expect(help.contains("  --a-very-long-option-name <a-very-long-option-name>\n                          lorem lorem"),
                "a label too wide for its column has its help on the next line")
        #expect(help.contains("  -o                      Paths out.\n") && help.contains("  --version               Show the version.\n"))
        #expect(help.hasSuffix("  -h, --help              Show help information.\n"))
        #expect(help.contains("USAGE: tool [<options>] <folder> [<out>]\n"))
        // Wrapping moves words to new lines and loses none.
        let words = help.split(whereSeparator: \.isWhitespace)
        #expect(words.filter { $0 == "lorem" }.count == 30 && words.filter { $0 == "longer-words" }.count == 20)
        #expect(words.filter { $0 == "word" }.count == 40)
    }
}
