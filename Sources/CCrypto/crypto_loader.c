/* Loads libcrypto on first use: see include/crypto_loader.h for why it is not linked. */
#include "crypto_loader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <openssl/opensslv.h>

static struct pg_crypto table;
static const struct pg_crypto *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define PG_STRING(x) #x
#define PG_SONAME(version) "libcrypto.so." PG_STRING(version)

static void load(void) {
    void *library = dlopen(PG_SONAME(OPENSSL_SHLIB_VERSION), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_CRYPTO_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_CRYPTO_FUNCTIONS(PG_CRYPTO_LOAD)
#undef PG_CRYPTO_LOAD
    loaded = &table;
}

const struct pg_crypto *pg_crypto_load(void) {
    pthread_once(&once, load);
    return loaded;
}
