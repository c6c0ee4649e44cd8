import Foundation
import PhotoGridTestSupport
import Testing

/// A real S3 implementation on 127.0.0.1 for the bucket tests: moto's server mode, from the
/// venv `scripts/setup --test` makes in .build/test-venv. Chosen over Ceph's RADOS Gateway
/// (a cluster to set up) and MinIO or Garage (not in Debian or PyPI): moto installs from PyPI in
/// seconds, and with `authenticated` its IAM checks are on, so it verifies each request's
/// Signature Version 4 and answers SignatureDoesNotMatch, InvalidAccessKeyId and AccessDenied as
/// S3 does. Without them it serves anyone: a public bucket. (Its policies ignore conditions,
/// so a prefix cannot be forbidden by one: `S3Gateway` puts nginx in front for that.)
package struct S3Server: Sendable {
    package let port: Int
    /// A user allowed everything (authenticated servers; the public one takes any key).
    package let admin: (key: String, secret: String)
    package var endpoint: String { "http://127.0.0.1:\(port)" }

    package static let venv = RemotePaths.root + "/.build/test-venv"
    package static let helper = RemotePaths.root + "/Tests/Fixtures/s3/moto-helper.py"

    /// Runs `body` with a server started for it, stopped after.
    package static func serving<T>(authenticated: Bool, _ body: (S3Server) throws -> T) throws -> T {
        try Subprocess.refuseInFastRun("moto_server")
        guard FileManager.default.isExecutableFile(atPath: venv + "/bin/moto_server") else {
            throw Problem("no S3 server to test with: \(venv)/bin/moto_server is missing (scripts/setup --test makes it)")
        }
        let port = Subprocess.freePort()
        var environment = ProcessInfo.processInfo.environment
        // Three unauthenticated actions make the admin user; everything after is checked.
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = authenticated ? "3" : "-1"
        if !authenticated { environment.removeValue(forKey: "INITIAL_NO_AUTH_ACTION_COUNT") }
        let server = try Subprocess.start([venv + "/bin/moto_server", "-H", "127.0.0.1", "-p", "\(port)"], environment: environment)
        defer { Subprocess.stop(server) }
        guard Subprocess.waitForPort(port, seconds: 30) else { throw Problem("moto_server did not start on port \(port)") }
        var admin = (key: "public", secret: "public")
        if authenticated {
            let words = try helper(["admin", "http://127.0.0.1:\(port)"]).split(separator: " ").map(String.init)
            guard words.count == 2 else { throw Problem("no admin user made: \(words)") }
            admin = (words[0], words[1])
        }
        return try body(S3Server(port: port, admin: admin))
    }

    /// The helper script run with the venv's python; its output, trimmed.
    @discardableResult
    package static func helper(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run([venv + "/bin/python", helper] + arguments)
        guard result.status == 0 else { throw Problem("moto-helper.py \(arguments.first ?? ""): \(result.errorText)") }
        return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The helper run against this server as the admin: `verb ENDPOINT KEY SECRET rest...`.
    @discardableResult
    package func run(_ verb: String, _ rest: String...) throws -> String {
        try S3Server.helper([verb, endpoint, admin.key, admin.secret] + rest)
    }

    /// A user who may only read `bucket`: its key and secret.
    package func reader(of bucket: String) throws -> (key: String, secret: String) {
        let words = try run("reader", bucket).split(separator: " ").map(String.init)
        guard words.count == 2 else { throw Problem("no reader made: \(words)") }
        return (words[0], words[1])
    }

    /// A home folder whose ~/.aws holds `profile` with these keys and this server as its endpoint.
    package func home(profile: String, key: String, secret: String, endpoint: String? = nil) throws -> String {
        let home = RemotePaths.scratch("aws-home")
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        try "[\(profile)]\naws_access_key_id = \(key)\naws_secret_access_key = \(secret)\n"
            .write(toFile: home + "/.aws/credentials", atomically: true, encoding: .utf8)
        let section = profile == "default" ? "default" : "profile \(profile)"
        try "[\(section)]\nregion = us-east-1\nendpoint_url = \(endpoint ?? self.endpoint)\n"
            .write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8)
        return home
    }

    package struct Problem: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
