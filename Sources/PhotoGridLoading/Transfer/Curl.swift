import CCurl
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The one file that calls libcurl: an easy handle per transfer, set up from a `TransferRequest`,
/// and the multi handle that runs them all on one thread (`TransferLoop`). libcurl brings HTTP/1.1
/// and HTTP/2 with keep-alive and TLS, SFTP through libssh2, netrc, proxies from the environment,
/// and basic and digest logins; photogrid adds what it decides (limits, what counts as failure).
enum Curl {
    /// Once per process, before any handle: libcurl loaded (on first use, not linked: see
    /// Sources/CCurl/include/curl_loader.h) and its global set-up run, which is not thread-safe.
    static let started: Bool = pg_curl_load() == 1

    /// Why no transfer can start when libcurl could not be loaded.
    static let missing = "remote galleries need libcurl (libcurl.so.4, Debian's libcurl4), which could not be loaded"
}

/// What a transfer hears from libcurl, on the loop's thread. Each returns false to stop it.
protocol CurlReceiver: AnyObject {
    func header(_ line: ArraySlice<UInt8>) -> Bool
    func data(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// An SFTP server's key as `~/.ssh/known_hosts` judges it: whether it may be trusted.
    func hostKey(_ match: HostKeyMatch) -> Bool
}

/// How an SSH server's key compares with the known hosts file.
package enum HostKeyMatch: Sendable { case known, changed, unknown, unreadable }

/// One transfer's libcurl handle: set up, run by the multi handle, read, cleaned up.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    /// C strings and lists libcurl keeps pointers to until the transfer ends.
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private var body: UnsafeMutableRawBufferPointer?
    /// The receiver, unretained: the transfer that owns this handle outlives it.
    private let context: UnsafeMutableRawPointer

    /// Nil when libcurl has no memory; only once `Curl.started`.
    init?(receiver: CurlReceiver) {
        guard let handle = pg_curl_easy_init() else { return nil }
        self.handle = handle
        let context = Unmanaged.passUnretained(receiver as AnyObject).toOpaque()
        self.context = context
        pg_curl_set_pointer(handle, CURLOPT_PRIVATE, context)
        pg_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        pg_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        pg_curl_set_data_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let receiver = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as! CurlReceiver
            return receiver.data(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        pg_curl_set_data_function(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let receiver = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as! CurlReceiver
            let line = UnsafeRawBufferPointer(start: data, count: size * count)
            return receiver.header(Array(line)[...]) ? size * count : 0
        }
        // Signals stay photogrid's: libcurl's resolver timeouts would otherwise use SIGALRM.
        pg_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
    }

    deinit {
        pg_curl_easy_cleanup(handle)
        strings.forEach { $0.deallocate() }
        lists.forEach { pg_curl_slist_free_all($0) }
        body?.deallocate()
    }

    // MARK: - Setting up

    private func set(_ option: CURLoption, _ value: Int) { pg_curl_set_long(handle, option, value) }

    private func set(_ option: CURLoption, _ text: String) {
        let bytes = text.utf8CString
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: bytes.count) }
        strings.append(copy)
        pg_curl_set_string(handle, option, copy)
    }

    func set(url: String) { set(CURLOPT_URL, url) }

    func set(userAgent: String) { set(CURLOPT_USERAGENT, userAgent) }

    /// The schemes it may use, also after a redirect ("http,https").
    func set(protocols: String) {
        set(CURLOPT_PROTOCOLS_STR, protocols)
        set(CURLOPT_REDIR_PROTOCOLS_STR, protocols)
    }

    /// No redirects followed by libcurl (the transfer loop follows them); its own second request
    /// with a login (Digest's challenge answered) still goes.
    func setNoRedirects() {
        set(CURLOPT_FOLLOWLOCATION, 0)
    }

    /// Seconds to connect; seconds without a byte before the transfer counts as stalled.
    func set(connectTimeout: Int, stallTimeout: Int) {
        set(CURLOPT_CONNECTTIMEOUT, connectTimeout)
        set(CURLOPT_LOW_SPEED_LIMIT, 1)
        set(CURLOPT_LOW_SPEED_TIME, stallTimeout)
    }

    /// Only these bytes (HTTP's Range, SFTP's offset and length).
    func set(range: Range<Int>) { set(CURLOPT_RANGE, "\(range.lowerBound)-\(range.upperBound - 1)") }

    func set(customMethod: String) { set(CURLOPT_CUSTOMREQUEST, customMethod) }

    /// Waits for a connection that may carry it alongside others (HTTP/2) rather than opening one.
    func set(waitsForMultiplexing: Bool) { set(CURLOPT_PIPEWAIT, waitsForMultiplexing ? 1 : 0) }

    /// Idle connections older than this are not used again: a server closing them at the same
    /// moment would meet a request (`photogrid serve` closes them after 75 s).
    func set(reuseConnectionsFor seconds: Int) { set(CURLOPT_MAXAGE_CONN, seconds) }

    /// A HEAD request: the head, no body expected.
    func set(headOnly: Bool) { set(CURLOPT_NOBODY, headOnly ? 1 : 0) }

    /// Certificates trusted besides the system's: libcurl's OpenSSL reads both the file and the
    /// system's folder of them.
    func set(trusting file: String) {
        set(CURLOPT_CAINFO, file)
        set(CURLOPT_CAPATH, "/etc/ssl/certs")
    }

    func set(user: String, password: String?) {
        set(CURLOPT_USERNAME, user)
        if let password { set(CURLOPT_PASSWORD, password) }
    }

    func set(sshKey file: String) { set(CURLOPT_SSH_PRIVATE_KEYFILE, file) }

    /// Headers sent as given ("Name: value"), replacing libcurl's own of the same name.
    func set(headers: [String]) {
        guard !headers.isEmpty else { return }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = pg_curl_slist_append(list, header) }
        if let list {
            lists.append(list)
            pg_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list)
        }
    }

    /// A request body (a batch's list, a PROPFIND's question), kept until the transfer ends.
    func set(body bytes: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyBytes(from: bytes)
        body = copy
        pg_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
        pg_curl_set_pointer(handle, CURLOPT_POSTFIELDS, copy.baseAddress)
    }

    func set(maxFileSize: Int) { pg_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxFileSize)) }

    /// Which logins the server may be offered: basic and digest, or one of them once known.
    func set(auth: (basic: Bool, digest: Bool)) {
        set(CURLOPT_HTTPAUTH, (auth.basic ? pg_curl_auth_basic : 0) | (auth.digest ? pg_curl_auth_digest : 0))
    }

    /// SSH's ways in: keys, the agent, a password when one was given.
    func set(sshAuth password: Bool) {
        set(CURLOPT_SSH_AUTH_TYPES, pg_curl_ssh_publickey | pg_curl_ssh_agent | (password ? pg_curl_ssh_password : 0))
    }

    /// `netrc`: read `~/.netrc` (or the file given) for hosts the URL gives no login for.
    func set(netrc file: String?) {
        set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
        if let file { set(CURLOPT_NETRC_FILE, file) }
    }

    /// The SSH server's key checked against `knownHosts` by the receiver (`hostKey`).
    func set(knownHosts: String) {
        set(CURLOPT_SSH_KNOWNHOSTS, knownHosts)
        pg_curl_set_pointer(handle, CURLOPT_SSH_KEYDATA, context)
        pg_curl_set_host_key_function(handle) { _, _, _, match, context in
            guard let context else { return Int32(CURLKHSTAT_REJECT.rawValue) }
            let receiver = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as! CurlReceiver
            let judged: HostKeyMatch = switch match {
            case CURLKHMATCH_OK: .known
            case CURLKHMATCH_MISMATCH: .changed
            case CURLKHMATCH_MISSING: .unknown
            default: .unreadable
            }
            return Int32((receiver.hostKey(judged) ? CURLKHSTAT_FINE : CURLKHSTAT_REJECT).rawValue)
        }
    }

    // MARK: - Reading

    var status: Int {
        var code = 0
        pg_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The URL last asked for, after any redirects.
    var effectiveURL: String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard pg_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    /// The logins the server offered in its last 401 (`WWW-Authenticate`).
    var offeredAuth: (basic: Bool, digest: Bool) {
        var bits = 0
        pg_curl_get_long(handle, CURLINFO_HTTPAUTH_AVAIL, &bits)
        return (bits & pg_curl_auth_basic != 0, bits & pg_curl_auth_digest != 0)
    }

    /// Bytes received, headers and body, for the link's measures.
    var bytesReceived: Int {
        var size: curl_off_t = 0
        pg_curl_get_offset(handle, CURLINFO_SIZE_DOWNLOAD_T, &size)
        return Int(size)
    }

    /// The receiver a handle that finished belongs to.
    static func receiver(of handle: UnsafeMutableRawPointer) -> CurlReceiver? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard pg_curl_get_string(handle, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue() as? CurlReceiver
    }
}

/// libcurl's outcome of a transfer, in photogrid's terms (`CurlFailure.kind`).
struct CurlFailure: Error, Sendable {
    enum Kind: Sendable {
        case refused, unknownHost, timedOut, noRoute, tls(String), certificate, plainToSecure, interrupted, tooLarge,
             tooManyRedirects, badRedirect, stopped, sshLogin, login, notFound, hugeHeaders, other
    }
    let kind: Kind
    /// libcurl's own words, for what photogrid has no words of its own for.
    let text: String

    /// `systemError`: the errno of the last failed system call (`CURLINFO_OS_ERRNO`), which
    /// says why a connection failed where libcurl's words do not.
    init(code: CURLcode, detail: String, systemError: Int = 0) {
        let words = detail.isEmpty ? String(cString: pg_curl_easy_strerror(code)) : detail
        text = words
        switch code {
        case CURLE_COULDNT_CONNECT:
            let lowered = words.lowercased()
            if SystemError(code: Int32(truncatingIfNeeded: systemError)).isRefused || lowered.contains("refused") { kind = .refused }
            else if SystemError(code: Int32(truncatingIfNeeded: systemError)).isTimedOut || lowered.contains("timed out") { kind = .timedOut }
            else { kind = .noRoute }
        case CURLE_COULDNT_RESOLVE_HOST: kind = .unknownHost
        case CURLE_OPERATION_TIMEDOUT: kind = .timedOut
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE: kind = .certificate
        case CURLE_SSL_CONNECT_ERROR:
            kind = words.lowercased().contains("wrong version number") ? .plainToSecure : .tls(words)
        case CURLE_FILESIZE_EXCEEDED: kind = .tooLarge
        case CURLE_TOO_MANY_REDIRECTS: kind = .tooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL: kind = .badRedirect
        case CURLE_WRITE_ERROR, CURLE_ABORTED_BY_CALLBACK: kind = .stopped
        case CURLE_LOGIN_DENIED: kind = .login
        case CURLE_REMOTE_FILE_NOT_FOUND: kind = .notFound
        // libcurl refuses a header past its limit (CURL_MAX_HTTP_HEADER, 100 KB) with this code:
        // a server's doing far more often than memory running out.
        case CURLE_OUT_OF_MEMORY: kind = .hugeHeaders
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .interrupted
        case CURLE_SSH:
            kind = words.lowercased().contains("auth") ? .sshLogin : .interrupted
        default: kind = .other
        }
    }
}

/// The multi handle: every transfer of the process, run by `TransferLoop` on its thread.
final class CurlMulti: @unchecked Sendable {
    let multi: UnsafeMutableRawPointer
    /// Per-transfer error text (CURLOPT_ERRORBUFFER), by handle.
    private var errors: [UnsafeMutableRawPointer: UnsafeMutablePointer<CChar>] = [:]

    /// Nil when libcurl could not be loaded (`Curl.missing`) or has no memory.
    init?(connectionsPerHost: Int) {
        guard Curl.started, let multi = pg_curl_multi_init() else { return nil }
        self.multi = multi
        // At most so many connections to one server; HTTP/2 servers take every request on one.
        pg_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        pg_curl_multi_set_long(multi, CURLMOPT_PIPELINING, pg_curl_pipe_multiplex)
    }

    deinit { pg_curl_multi_cleanup(multi) }

    func add(_ easy: CurlEasy) {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer[0] = 0
        errors[easy.handle] = buffer
        pg_curl_set_pointer(easy.handle, CURLOPT_ERRORBUFFER, buffer)
        pg_curl_multi_add_handle(multi, easy.handle)
    }

    func remove(_ easy: CurlEasy) {
        pg_curl_multi_remove_handle(multi, easy.handle)
        errors.removeValue(forKey: easy.handle)?.deallocate()
    }

    /// Moves every transfer on as far as it can go without waiting.
    func perform() {
        var running: Int32 = 0
        pg_curl_multi_perform(multi, &running)
    }

    /// Waits for any transfer's socket, a wake-up, or `milliseconds`.
    func poll(milliseconds: Int) {
        var ready: Int32 = 0
        pg_curl_multi_poll(multi, Int32(milliseconds), &ready)
    }

    /// Wakes `poll` from another thread.
    func wakeUp() { pg_curl_multi_wakeup(multi) }

    /// The transfers that ended since last asked: each handle, and its failure if it failed.
    func finished() -> [(handle: UnsafeMutableRawPointer, failure: CurlFailure?)] {
        var ended: [(UnsafeMutableRawPointer, CurlFailure?)] = []
        var left: Int32 = 0
        while let message = pg_curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            let detail = errors[handle].map { String(cString: $0) } ?? ""
            var systemError = 0
            if code != CURLE_OK { pg_curl_get_long(handle, CURLINFO_OS_ERRNO, &systemError) }
            ended.append((handle, code == CURLE_OK ? nil : CurlFailure(code: code, detail: detail, systemError: systemError)))
        }
        return ended
    }
}
