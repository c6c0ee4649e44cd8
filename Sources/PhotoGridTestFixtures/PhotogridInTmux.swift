import Foundation
import PhotoGridTestSupport

/// What the suites that drive photogrid in a tmux pane share: the status line read off the
/// screen, and photogrid started in half-block mode.
package protocol PhotogridInTmux {}

extension PhotogridInTmux {
    /// The status line: the last line that says "N of M".
    package func status(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains(" of ") }.map(String.init) ?? ""
    }

    /// photogrid with `arguments` (a shell word list), in half-block mode with 24-bit colour, in a
    /// pane `columns` wide and 30 rows high; run from `folder` when one is given.
    package func start(_ arguments: String, in folder: String? = nil, columns: Int = 120, environment: [String: String] = [:]) throws -> Tmux {
        var command = "\(Paths.binary) --mode halfblock \(arguments)"
        if let folder { command = "sh -c \"cd '\(folder)' && \(command)\"" }
        return try Tmux(columns: columns, rows: 30, command: command, environment: ["COLORTERM": "truecolor"].merging(environment) { $1 })
    }
}

extension Tmux {
    /// The mean brightness of the 24-bit colours on a screen captured with its escapes: whether
    /// a picture changed, from the half-blocks that draw it.
    package static func brightness(_ screen: String) -> Double {
        var total = 0, count = 0
        for part in screen.components(separatedBy: "8;2;").dropFirst() {
            let numbers = part.prefix { $0.isNumber || $0 == ";" }.split(separator: ";").prefix(3).compactMap { Int($0) }
            guard numbers.count == 3 else { continue }
            total += numbers.reduce(0, +) / 3
            count += 1
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }
}
