import Foundation
import PhotoGridTestSupport
import Testing
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// nginx on 127.0.0.1 serving a folder, started for a test and stopped after it. Its worker runs
/// as another user (www-data), who may not enter the checkout (a clone under a 0700 folder, a
/// home): the folder it serves must be one anyone can read, as `scratch` folders made 0755 are.
package enum Nginx {
    package static let path: String? = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `body` with the port nginx serves `root` on; `autoindex` "on" or "json" lists folders.
    /// With `tls` (a certificate and its key), HTTPS with HTTP/2 offered; each request is logged
    /// to `access.log` in the folder `body` is given as `log` says ("<connection> <protocol> <path>").
    /// `extra` goes into the server block as it is.
    package static func serving<T>(_ root: String, autoindex: String? = nil, tls: (certificate: String, key: String)? = nil,
                           log: String = "$connection $server_protocol $request_uri", extra: String = "",
                           _ body: (_ port: Int, _ prefix: String) throws -> T) throws -> T {
        let prefix = RemotePaths.scratch("nginx")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let port = Subprocess.freePort()
        let listing = autoindex.map { "autoindex on;" + ($0 == "json" ? " autoindex_format json;" : "") } ?? ""
        let listen = tls.map { "listen 127.0.0.1:\(port) ssl http2; ssl_certificate \($0.certificate); ssl_certificate_key \($0.key);" }
            ?? "listen 127.0.0.1:\(port);"
        let config = """
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log;
            events { worker_connections 64; }
            http {
                log_format requests '\(log)';
                access_log \(prefix)/access.log requests;
                client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy; fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
                types { image/jpeg jpg jpeg; application/json json; }
                server {
                    \(listen)
                    root \(root);
                    \(listing)
                    \(extra)
                }
            }
            """
        try config.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let nginx = try Subprocess.start([path!, "-p", prefix, "-c", prefix + "/nginx.conf", "-g", "daemon off;"])
        defer { Subprocess.stop(nginx) }
        #expect(Subprocess.waitForPort(port), "nginx did not start: \((try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? "")")
        return try body(port, prefix)
    }

    /// Runs `body` with the port, without the log's folder.
    package static func serving<T>(_ root: String, autoindex: String? = nil, _ body: (_ port: Int) throws -> T) throws -> T {
        try serving(root, autoindex: autoindex, tls: nil) { port, _ in try body(port) }
    }

    /// The JPEG requests of an access log written with the format
    /// "$request_uri $status $body_bytes_sent" under `prefix`, in order.
    package static func jpegRequests(_ prefix: String) -> [(uri: String, status: Int, bytes: Int)] {
        let log = (try? String(contentsOfFile: prefix + "/access.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let status = Int(parts[1]), let bytes = Int(parts[2]) else { return nil }
            return (String(parts[0]), status, bytes)
        }.filter { $0.uri.hasSuffix(".jpg") }
    }
}
