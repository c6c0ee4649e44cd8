import Glibc

/// The environment variables photogrid reads, read in one place. What is read is handed on as a
/// dictionary, so that what decides from it (the terminal probe, the disk cache's folder, the
/// opener) is tested with a dictionary of its own.
package enum Environment {
    /// The value of `name`, nil when it is not set.
    package static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Sets a variable for this process and what it starts (at start-up, before any thread).
    package static func set(_ name: String, _ value: String) { setenv(name, value, 1) }

    /// The variables among `names` that are set.
    package static func values(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names { if let value = value(name) { result[name] = value } }
        return result
    }

    /// What the disk caches' folder is found from (`DiskCache.defaultDirectory`).
    package static let cacheNames = ["XDG_CACHE_HOME", "HOME"]
}
