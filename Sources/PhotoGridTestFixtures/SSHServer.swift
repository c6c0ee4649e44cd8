import Foundation
import PhotoGridTestSupport
import Testing
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// OpenSSH's sshd on 127.0.0.1 with SFTP, started for a test and stopped after it: a host key
/// of its own, and a client home (`~/.ssh` with a key it takes and a known_hosts that knows it).
package enum SSHServer {
    package static let path: String? = ["/usr/sbin/sshd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    package static let keygen: String? = ["/usr/bin/ssh-keygen"].first { FileManager.default.isExecutableFile(atPath: $0) }
    package static var user: String { ProcessInfo.processInfo.environment["USER"] ?? String(decoding: (try? Subprocess.run(["/usr/bin/id", "-un"]).output) ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }

    package struct Running {
        package let port: Int
        /// A HOME for photogrid: `.ssh/id_ed25519` and `.ssh/known_hosts`.
        package let home: String
        /// The host's public key line, and another key's, for known_hosts that are wrong.
        package let hostKey: String
        package let otherKey: String
    }

    package static func serving<T>(_ body: (Running) throws -> T) throws -> T {
        let base = RemotePaths.scratch("sshd")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let home = base + "/home"
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        for key in [base + "/host", base + "/other", home + "/.ssh/id_ed25519"] {
            _ = try Subprocess.run([keygen!, "-q", "-t", "ed25519", "-N", "", "-f", key])
        }
        try FileManager.default.copyItem(atPath: home + "/.ssh/id_ed25519.pub", toPath: base + "/authorized_keys")
        let port = Subprocess.freePort()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(base)/host
            AuthorizedKeysFile \(base)/authorized_keys
            PidFile \(base)/sshd.pid
            StrictModes no
            PermitRootLogin prohibit-password
            PasswordAuthentication no
            UsePAM no
            Subsystem sftp internal-sftp
            """
        try config.write(toFile: base + "/sshd_config", atomically: true, encoding: .utf8)
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let sshd = try Subprocess.start([path!, "-D", "-e", "-f", base + "/sshd_config"])
        defer { Subprocess.stop(sshd) }
        #expect(Subprocess.waitForPort(port), "sshd did not start")
        func publicKey(_ file: String) throws -> String {
            let line = try String(contentsOfFile: file + ".pub", encoding: .utf8).split(separator: " ")
            return "[127.0.0.1]:\(port) \(line[0]) \(line[1])"
        }
        let running = Running(port: port, home: home, hostKey: try publicKey(base + "/host"), otherKey: try publicKey(base + "/other"))
        try (running.hostKey + "\n").write(toFile: home + "/.ssh/known_hosts", atomically: true, encoding: .utf8)
        return try body(running)
    }
}
