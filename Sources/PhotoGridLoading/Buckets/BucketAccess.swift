import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// How a bucket is reached, as the AWS tools read it: keys from `AWS_ACCESS_KEY_ID` and
/// `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`), else from the profile (`AWS_PROFILE`, else
/// "default") in `~/.aws/credentials` or `~/.aws/config`; the region from `AWS_REGION`,
/// `AWS_DEFAULT_REGION` or the profile; the endpoint from `AWS_ENDPOINT_URL_S3`,
/// `AWS_ENDPOINT_URL` or the profile's `endpoint_url` (MinIO, Garage, R2, B2...). No keys at
/// all: anonymous, for public buckets.
package struct BucketAccess: Sendable {
    package var credentials: BucketCredentials?
    package var region = "us-east-1"
    package var endpoint: RemoteURL?
    package var profile = "default"

    package struct Problem: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package init(credentials: BucketCredentials? = nil, region: String = "us-east-1", endpoint: RemoteURL? = nil) {
        (self.credentials, self.region, self.endpoint) = (credentials, region, endpoint)
    }

    /// The access the environment and the AWS files give.
    package static func fromEnvironment(_ variable: (String) -> String? = Environment.value) throws(Problem) -> BucketAccess {
        func set(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
        var access = BucketAccess()
        let named = set("AWS_PROFILE") ?? set("AWS_DEFAULT_PROFILE")
        access.profile = named ?? "default"
        let home = set("HOME") ?? ""
        let credentialsPath = set("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials"
        let configPath = set("AWS_CONFIG_FILE") ?? home + "/.aws/config"
        let keys = AWSFile.read(credentialsPath)?[access.profile]
        // The config file names a profile other than the default "profile NAME".
        let config = AWSFile.read(configPath)?[access.profile == "default" ? "default" : "profile " + access.profile]
        if named != nil, keys == nil, config == nil {
            throw Problem(description: "the AWS profile \"\(TerminalText.sanitize(access.profile))\" (AWS_PROFILE) is in neither "
                          + "\(credentialsPath) nor \(configPath)")
        }
        if let id = set("AWS_ACCESS_KEY_ID"), let secret = set("AWS_SECRET_ACCESS_KEY") {
            access.credentials = BucketCredentials(accessKey: id, secretKey: secret, sessionToken: set("AWS_SESSION_TOKEN"))
        } else if let from = [keys, config].compactMap({ $0 }).first(where: { $0["aws_access_key_id"] != nil }),
                  let id = from["aws_access_key_id"], let secret = from["aws_secret_access_key"] {
            access.credentials = BucketCredentials(accessKey: id, secretKey: secret, sessionToken: from["aws_session_token"])
        }
        if let region = set("AWS_REGION") ?? set("AWS_DEFAULT_REGION") ?? config?["region"] { access.region = region }
        if let text = set("AWS_ENDPOINT_URL_S3") ?? set("AWS_ENDPOINT_URL") ?? config?["s3.endpoint_url"] ?? config?["endpoint_url"] {
            guard let endpoint = RemoteURL(text), endpoint.query == nil else {
                throw Problem(description: "the S3 endpoint \"\(TerminalText.sanitize(text))\" is not an http or https URL")
            }
            access.endpoint = endpoint
        }
        return access
    }

    /// Where `s3://BUCKET/PREFIX` is: path-style under the endpoint when there is one (MinIO and
    /// its kind), else AWS's virtual-hosted address for the region (path-style for a name with
    /// dots, which a wildcard certificate does not cover).
    package func location(of text: String) throws(Problem) -> BucketLocation {
        guard text.lowercased().hasPrefix("s3://") else { throw Problem(description: "\(TerminalText.sanitize(text)): not an s3:// URL") }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        if !prefix.isEmpty, !prefix.hasSuffix("/") { prefix += "/" }
        // S3's rules for bucket names: 3 to 63 lower-case letters, digits, dots and hyphens.
        guard (3...63).contains(bucket.count), bucket.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }) else {
            throw Problem(description: "\(TerminalText.sanitize(text)): \"\(TerminalText.sanitize(bucket))\" is not a bucket name "
                          + "(3 to 63 lower-case letters, digits, dots and hyphens)")
        }
        let base: String
        if let endpoint {
            base = endpoint.origin + (endpoint.path.hasSuffix("/") ? endpoint.path : endpoint.path + "/") + bucket + "/"
        } else if bucket.contains(".") {
            base = "https://s3.\(region).amazonaws.com/\(bucket)/"
        } else {
            base = "https://\(bucket).s3.\(region).amazonaws.com/"
        }
        guard let url = RemoteURL(base), let location = BucketLocation(base: url, prefix: prefix) else {
            throw Problem(description: "\(TerminalText.sanitize(text)): not a bucket photogrid can reach")
        }
        return location
    }

    /// Whether `url` is on an S3 endpoint: the one configured, or AWS's, Cloudflare R2's or
    /// Backblaze B2's, whose https URLs name buckets. Only these get a signature.
    package static func isS3Endpoint(_ url: RemoteURL, configured: RemoteURL?) -> Bool {
        if let configured, configured.origin == url.origin { return true }
        guard url.isSecure else { return false }
        let host = url.host
        return [".amazonaws.com", ".r2.cloudflarestorage.com", ".backblazeb2.com"].contains { host.hasSuffix($0) }
    }

    /// The signer for these credentials; nil when there are none (anonymous).
    package var signer: BucketSigner? { credentials.map { BucketSigner(credentials: $0, region: region) } }
}

/// The AWS tools' INI files: `[section]`, `key = value`, comments starting with # or ;, and a
/// key's indented lines as a sub-section (`s3 =` then `  endpoint_url = ...`, read as "s3.endpoint_url").
enum AWSFile {
    static func read(_ path: String) -> [String: [String: String]]? {
        guard let file = try? FileDescriptor.open(RawPath(path), .read, options: .untrusted),
              let bytes = file.closing({ try? $0.readToEnd(limit: 1 << 20) }) else { return nil }
        var sections: [String: [String: String]] = [:]
        var section: String?, parent: String?
        for raw in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let indented = raw.first == " " || raw.first == "\t"
            let line = String(raw).trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace
                section = name
                parent = nil
                sections[name, default: [:]] = sections[name] ?? [:]
                continue
            }
            guard let section, let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingWhitespace.lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace
            if indented, let parent {
                sections[section]?[parent + "." + key] = value
            } else if value.isEmpty {
                parent = key
            } else {
                parent = nil
                sections[section]?[key] = value
            }
        }
        return sections
    }
}
