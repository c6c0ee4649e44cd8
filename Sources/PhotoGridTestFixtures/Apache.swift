import Foundation
import Glibc
import PhotoGridTestSupport
import Testing
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// Apache on 127.0.0.1 sharing a folder over WebDAV (mod_dav, no listing on GET, as NAS shares
/// are set up), started for a test and stopped after it. Its worker runs as www-data: the folder
/// must be one anyone can read.
package enum Apache {
    package static let path: String? = ["/usr/sbin/apache2", "/usr/sbin/httpd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    package static let modules = "/usr/lib/apache2/modules"

    /// Runs `body` with the port Apache serves `root` on; `extra` goes inside its <Directory>
    /// (a login, say).
    package static func sharing<T>(_ root: String, extra: String = "", loading: [String] = [], _ body: (_ port: Int) throws -> T) throws -> T {
        let prefix = RemotePaths.scratch("apache")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/lock", withIntermediateDirectories: true)
        _ = try Subprocess.run(["chmod", "-R", "a+rwX", prefix])
        let port = Subprocess.freePort()
        let load = (["mpm_event", "authz_core", "dav", "dav_fs", "mime"] + loading)
            .map { "LoadModule \($0)_module \(modules)/mod_\($0).so" }.joined(separator: "\n")
        // Run as root (as CI is), Apache's workers become www-data; otherwise they stay this user.
        let user = getuid() == 0 ? "User www-data\nGroup www-data" : ""
        let config = """
            ServerRoot \(prefix)
            ServerName localhost
            PidFile \(prefix)/httpd.pid
            ErrorLog \(prefix)/error.log
            Listen 127.0.0.1:\(port)
            \(load)
            \(user)
            TypesConfig /etc/mime.types
            DAVLockDB \(prefix)/lock/DAVLock
            DocumentRoot \(root)
            <Directory \(root)>
              Dav On
              Options None
              \(extra)
            </Directory>
            """
        try config.write(toFile: prefix + "/httpd.conf", atomically: true, encoding: .utf8)
        let apache = try Subprocess.start([path!, "-f", prefix + "/httpd.conf", "-DFOREGROUND"])
        defer { Subprocess.stop(apache) }
        #expect(Subprocess.waitForPort(port), "apache did not start: \((try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? "")")
        return try body(port)
    }
}
