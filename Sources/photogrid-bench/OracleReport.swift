import PhotoGridCore
import PhotoGridTestSupport

/// `photogrid-bench oracle [KEYS] [SEEDS]`: the screen oracle's walks (`ScreenOracle`), longer and
/// over more seeds than the test suite affords: each terminal kind and half-blocks, folders of
/// odd sizes. Prints a line a walk (frames and pictures checked, the time it took) and the
/// first finding of any walk that found one, with the seed that plays it again.
enum OracleReport {
    package static func run(keys: Int, seeds: Int) throws {
        print("screen oracle: \(keys) keys a walk, \(seeds) seeds a kind, on \(WorkerThreads.cores) cores")
        print("walk | frames | pictures checked | seconds | found")
        print("--- | --- | --- | --- | ---")
        var found = 0
        for seed in 1...UInt64(max(1, seeds)) {
            let photos = [7, 18, 23, 37, 41, 53][Int(seed) % 6]
            let walks = ModelTerminal.Kind.allCases.map { ScreenOracle.Walk(kind: $0, photos: photos, seed: seed * 100, keys: keys) }
                + [ScreenOracle.Walk.halfBlock(photos: photos, seed: seed * 100, keys: keys)]
            for walk in walks {
                var oracle = ScreenOracle(walk)
                let started = SystemClock().seconds()
                let findings = oracle.run()
                let seconds = SystemClock().seconds() - started
                found += findings.count
                print("\(walk.name) | \(oracle.framesChecked) | \(oracle.picturesChecked) | \(String(format1: seconds)) | \(findings.isEmpty ? "nothing" : "FOUND")")
                if let first = findings.first { print(first.description) }
            }
        }
        if found > 0 { throw BenchError("the oracle found \(found) screens that differ from the layout") }
    }

    struct BenchError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension String {
    init(format1 value: Double) { self = "\(Double(Int(value * 10)) / 10)" }
}
