import PhotoGridCore

/// The front door of all three commands (the browser, `serve`, `export`): parses, runs, and
/// ends with one of the exit statuses the README lists.
enum CommandLineRun {
    /// 2: the command line cannot be run as given (a bad option or value, a path that is not
    /// there, no terminal). 1 is for what fails once running, 0 for success.
    static let usageStatus: Int32 = 2

    static func run(_ syntax: CommandSyntax, _ words: [String], _ command: (ParsedCommandLine) throws(CommandLineError) -> Int32) -> Never {
        do throws(CommandLineError) {
            switch try syntax.parse(words) {
            case .help: write(syntax.help)
            case .version: write((syntax.version ?? "") + "\n")
            case .run(let line): ThisProcess.exit(try command(line))
            }
        } catch {
            // The message in photogrid's own form, the option's help and the usage after it.
            PhotoGrid.printMessage(error.message + "\n" + syntax.errorFooter(for: error))
            ThisProcess.exit(usageStatus)
        }
    }

    /// --help, --version: the text is the output, and a failed write is an error.
    private static func write(_ text: String) -> Never {
        do throws(TTY.WriteError) { try TTY.writeAll(Array(text.utf8)) } catch {
            if error.brokenPipe { ThisProcess.exit(TTY.brokenPipeStatus) }
            PhotoGrid.printError("cannot write to standard output: \(error.description)")
            ThisProcess.exit(1)
        }
        ThisProcess.exit(0)
    }
}
