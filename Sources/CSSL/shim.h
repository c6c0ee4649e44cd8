/* OpenSSL's libssl, for Sources/PhotoGridServe/Server/TLSSession.swift only: `photogrid serve
   --tls-cert` speaks TLS through memory BIOs, NIO moving the bytes. libcurl links libssl
   already. It returns codes, no longjmp. */
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>

/* Macros Swift cannot import. */
static inline long pg_ssl_ctx_set_min_tls12(SSL_CTX *context) {
    return SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}
static inline long pg_bio_set_mem_eof_return(BIO *bio, long value) {
    return BIO_set_mem_eof_return(bio, value);
}
static inline long pg_ssl_ctx_set_modes(SSL_CTX *context) {
    return SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
}
