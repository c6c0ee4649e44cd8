/* OpenSSL's libssl, for Sources/PhotoGridServe/Server/TLSSession.swift only: `photogrid serve
   --tls-cert` speaks TLS through memory BIOs, the connection's thread moving the bytes. It
   returns codes, no longjmp.

   It is loaded with dlopen when a server with a certificate starts, not linked: with libcrypto it
   cost every start of photogrid about 2 ms (Sources/CCrypto/include/crypto_loader.h). The
   header comes from libssl-dev; the library loaded is the libssl of the OpenSSL this is compiled
   against (libssl.so.3), and the BIO and error functions come from the libcrypto it links. */
#ifndef PHOTOGRID_SSL_LOADER_H
#define PHOTOGRID_SSL_LOADER_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>

#define PG_SSL_FUNCTIONS(X) \
    X(TLS_server_method) X(SSL_CTX_new) X(SSL_CTX_free) X(SSL_CTX_ctrl) X(SSL_CTX_use_certificate_chain_file) \
    X(SSL_CTX_use_PrivateKey_file) X(SSL_CTX_check_private_key) X(SSL_new) X(SSL_free) X(SSL_set_bio) \
    X(SSL_set_accept_state) X(SSL_read) X(SSL_write) X(SSL_get_error) X(SSL_shutdown) \
    X(BIO_new) X(BIO_free) X(BIO_s_mem) X(BIO_ctrl) X(BIO_ctrl_pending) X(BIO_read) X(BIO_write) \
    X(ERR_clear_error) X(ERR_get_error) X(ERR_reason_error_string)

#define PG_SSL_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_ssl {
    PG_SSL_FUNCTIONS(PG_SSL_FIELD)
};
#undef PG_SSL_FIELD

/* libssl's functions, loaded once (thread-safe); NULL when it cannot be loaded. */
const struct pg_ssl * _Nullable pg_ssl_load(void);

/* Macros Swift cannot import, through the loaded library. */
long pg_ssl_ctx_set_min_tls12(const struct pg_ssl * _Nonnull ssl, SSL_CTX * _Nonnull context);
long pg_ssl_ctx_set_modes(const struct pg_ssl * _Nonnull ssl, SSL_CTX * _Nonnull context);
long pg_bio_set_mem_eof_return(const struct pg_ssl * _Nonnull ssl, BIO * _Nonnull bio, long value);
#endif
