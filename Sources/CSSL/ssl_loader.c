/* Loads libssl on first use: see include/ssl_loader.h for why it is not linked. */
#include "ssl_loader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <openssl/opensslv.h>

static struct pg_ssl table;
static const struct pg_ssl *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define PG_STRING(x) #x
#define PG_SONAME(version) "libssl.so." PG_STRING(version)

static void load(void) {
    void *library = dlopen(PG_SONAME(OPENSSL_SHLIB_VERSION), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    /* dlsym on libssl's handle finds libcrypto's functions too: it searches what libssl links. */
#define PG_SSL_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_SSL_FUNCTIONS(PG_SSL_LOAD)
#undef PG_SSL_LOAD
    loaded = &table;
}

const struct pg_ssl *pg_ssl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

/* SSL_CTX_set_min_proto_version, SSL_CTX_set_mode and BIO_set_mem_eof_return as their macros
   expand, through the loaded functions. */
long pg_ssl_ctx_set_min_tls12(const struct pg_ssl *ssl, SSL_CTX *context) {
    return ssl->SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
}
long pg_ssl_ctx_set_modes(const struct pg_ssl *ssl, SSL_CTX *context) {
    return ssl->SSL_CTX_ctrl(context, SSL_CTRL_MODE, SSL_MODE_RELEASE_BUFFERS, NULL);
}
long pg_bio_set_mem_eof_return(const struct pg_ssl *ssl, BIO *bio, long value) {
    return ssl->BIO_ctrl(bio, BIO_C_SET_BUF_MEM_EOF_RETURN, value, NULL);
}
