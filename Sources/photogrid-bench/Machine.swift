import Glibc

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

import PhotoGridCore

extension FileReader {
    /// A small text file (/proc), read as UTF-8.
    static func readText(_ path: String) throws -> String {
        // /proc files report a size of 0: read by blocks.
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw DecodeError.unreadable(path) }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
