import ArgumentParser
import PhotoGridCore

/// The front door of all three commands (the browser, `serve`, `export`): parses, runs, and
/// ends with one of the exit statuses the README lists. ArgumentParser's own `main` exits 64
/// for a bad argument and prints help and `--version` with no check that they were written.
enum CommandLineRun {
    /// 2: the command line cannot be run as given (a bad option or value, a path that is not
    /// there, no terminal). 1 is for what fails once running, 0 for success.
    static let usageStatus: Int32 = 2

    static func run<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) -> Never {
        do {
            var command = try type.parseAsRoot(arguments)
            try command.run()
            ThisProcess.exit(0)
        } catch {
            let code = type.exitCode(for: error)
            let message = type.fullMessage(for: error)
            if code == .success {
                // --help, --version: the text is the output, and a failed write is an error.
                do throws(TTY.WriteError) { try TTY.writeAll(Array((message + "\n").utf8)) } catch {
                    if error.brokenPipe { ThisProcess.exit(TTY.brokenPipeStatus) }
                    PhotoGrid.printError("cannot write to standard output: \(error.description)")
                    ThisProcess.exit(1)
                }
                ThisProcess.exit(0)
            }
            if let exit = error as? ExitCode { ThisProcess.exit(exit.rawValue) }
            // "Error: ..." in photogrid's own form, its usage lines after it.
            let text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
            PhotoGrid.printMessage(text)
            ThisProcess.exit(code == .validationFailure ? usageStatus : code.rawValue == 64 ? usageStatus : code.rawValue)
        }
    }
}
