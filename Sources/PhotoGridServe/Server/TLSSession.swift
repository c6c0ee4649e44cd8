import CSSL

/// TLS for `photogrid serve --tls-cert`, from the system's OpenSSL (the one file calling libssl):
/// a context made once from the certificate chain and key, and a session a connection, fed the
/// bytes that arrive and giving back the bytes to send, through memory BIOs; `Connection` does
/// the I/O. OpenSSL, not swift-nio-ssl's copy of BoringSSL: that copy was 162 s of a fresh
/// release build's 409 (docs/decisions.md), and libcurl already links this one.
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    /// libssl's functions, loaded when the first context is made (Sources/CSSL/include/ssl_loader.h).
    let ssl: UnsafePointer<pg_ssl>

    /// The context for `certificate` (a PEM chain, the server's first) and its `key`; the
    /// reason in a user's words when they cannot be used together.
    init(certificate: String, key: String) throws(TLSFailure) {
        guard let ssl = pg_ssl_load() else {
            throw TLSFailure("--tls-cert needs OpenSSL's libssl (libssl.so.3, Debian's libssl3), which could not be loaded",
                             libraryMissing: true)
        }
        self.ssl = ssl
        guard let context = ssl.pointee.SSL_CTX_new(ssl.pointee.TLS_server_method()) else {
            throw TLSFailure("OpenSSL could not make a TLS context")
        }
        self.context = context
        _ = pg_ssl_ctx_set_min_tls12(ssl, context)
        _ = pg_ssl_ctx_set_modes(ssl, context)
        ssl.pointee.ERR_clear_error()
        guard ssl.pointee.SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
            throw TLSFailure("\(certificate): no PEM certificate in it (\(TLSFailure.openSSLWords(ssl)))")
        }
        guard ssl.pointee.SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            throw TLSFailure("\(key): no PEM private key in it (\(TLSFailure.openSSLWords(ssl)))")
        }
        guard ssl.pointee.SSL_CTX_check_private_key(context) == 1 else {
            throw TLSFailure("\(key) is not the private key of \(certificate)")
        }
    }

    deinit { ssl.pointee.SSL_CTX_free(context) }
}

/// One connection's TLS: bytes in from the network, plain bytes out; plain bytes in, bytes out.
/// Used on the connection's thread only.
final class TLSSession {
    private let library: UnsafePointer<pg_ssl>
    private let ssl: OpaquePointer
    /// What the network brought, for OpenSSL to read; what OpenSSL wrote, for the network.
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    private(set) var failed = false

    init?(_ context: TLSContext) {
        let library = context.ssl
        guard let ssl = library.pointee.SSL_new(context.context) else { return nil }
        guard let incoming = library.pointee.BIO_new(library.pointee.BIO_s_mem()) else {
            library.pointee.SSL_free(ssl)
            return nil
        }
        guard let outgoing = library.pointee.BIO_new(library.pointee.BIO_s_mem()) else {
            _ = library.pointee.BIO_free(incoming)
            library.pointee.SSL_free(ssl)
            return nil
        }
        (self.library, self.ssl, self.incoming, self.outgoing) = (library, ssl, incoming, outgoing)
        // An empty memory BIO says "retry", not "end of file".
        pg_bio_set_mem_eof_return(library, incoming, -1)
        pg_bio_set_mem_eof_return(library, outgoing, -1)
        library.pointee.SSL_set_bio(ssl, incoming, outgoing)     // the session owns both now
        library.pointee.SSL_set_accept_state(ssl)
    }

    deinit { library.pointee.SSL_free(ssl) }

    /// Takes bytes from the network; returns the plain bytes they complete (none during the
    /// handshake). A protocol error marks the session failed: the connection is to be closed.
    func receive(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var offset = 0
        while offset < bytes.count {
            let written = library.pointee.BIO_write(incoming, bytes.baseAddress! + offset, Int32(min(bytes.count - offset, Int(Int32.max))))
            guard written > 0 else { failed = true; return [] }
            offset += Int(written)
        }
        var plain: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { library.pointee.SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                plain += chunk[0..<Int(count)]
                continue
            }
            let error = library.pointee.SSL_get_error(ssl, count)
            if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE && error != SSL_ERROR_ZERO_RETURN { failed = true }
            library.pointee.ERR_clear_error()
            return plain
        }
    }

    /// Encrypts plain bytes to send; false when the session cannot (failed, or not yet open).
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = library.pointee.SSL_write(ssl, bytes.baseAddress! + offset, Int32(min(bytes.count - offset, 1 << 20)))
            guard count > 0 else {
                library.pointee.ERR_clear_error()
                failed = true
                return false
            }
            offset += Int(count)
        }
        return true
    }

    /// A close_notify, for a connection closed in order.
    func shutdown() {
        _ = library.pointee.SSL_shutdown(ssl)
        library.pointee.ERR_clear_error()
    }

    /// What OpenSSL has written for the network since last asked: handshake messages, records.
    func takeOutgoing() -> [UInt8] {
        let pending = Int(library.pointee.BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { library.pointee.BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
        return read > 0 ? Array(bytes.prefix(Int(read))) : []
    }
}

struct TLSFailure: Error, CustomStringConvertible {
    var description: String
    /// libssl itself could not be loaded: not the files' fault.
    var libraryMissing = false
    init(_ description: String, libraryMissing: Bool = false) {
        self.description = description
        self.libraryMissing = libraryMissing
    }

    /// OpenSSL's reason for its last error, its queue then cleared.
    static func openSSLWords(_ ssl: UnsafePointer<pg_ssl>) -> String {
        let code = ssl.pointee.ERR_get_error()
        ssl.pointee.ERR_clear_error()
        guard code != 0, let reason = ssl.pointee.ERR_reason_error_string(code) else { return "unreadable" }
        return String(cString: reason)
    }
}
