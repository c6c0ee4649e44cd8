import Glibc
import PhotoGridCore
import PhotoGridSamples

/// What the figures were measured on.
enum Machine {
    static func describe() -> [String] {
        let cpu = firstLine(of: "/proc/cpuinfo", startingWith: "model name").map { String($0.split(separator: ":", maxSplits: 1).last ?? "") }
        let memory = firstLine(of: "/proc/meminfo", startingWith: "MemTotal").map { line -> String in
            let kb = Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
            return "\(kb / 1024 / 1024) GiB"
        }
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return [
            "CPU: \(cpu?.trimmingSpaces ?? "unknown"), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores online",
            "memory: \(memory ?? "unknown"), Linux \(kernel)",
        ]
    }

    static var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    static func firstLine(of path: String, startingWith prefix: String) -> String? {
        guard let bytes = try? FileReader.readText(path) else { return nil }
        return bytes.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }
}

extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
