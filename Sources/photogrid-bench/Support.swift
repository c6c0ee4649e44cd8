import Glibc
import PhotoGridCore

/// Timing measurements on the monotonic clock.
enum Timing {
    static func now() -> Double { SystemClock().seconds() }

    /// Seconds one run of `body` takes.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// The fastest of `runs` runs: the figure least disturbed by other work on the machine.
    static func best(of runs: Int, _ body: () -> Void) -> Double {
        (0..<runs).map { _ in time(body) }.min() ?? 0
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// Plain-text tables that read the same in a terminal and in Markdown.
enum Table {
    static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
    static func rule(_ count: Int) -> String { "|" + String(repeating: " --- |", count: count) }
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        } else if digits > 0 { text += "." + String(repeating: "0", count: digits) }
        return text
    }
}
