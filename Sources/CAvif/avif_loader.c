/* Loads libavif on first use: see include/avif_loader.h for why it is not linked. */
#include "avif_loader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct pg_avif table;
static const struct pg_avif *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    /* The soname follows the ABI, not the version: Debian 12's 0.11 is .15, 1.0 is .16. Any of
       them is taken only if it says it is the version whose header this was built with. */
    static const char *const names[] = { "libavif.so.15", "libavif.so.16", "libavif.so" };
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++)
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_AVIF_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_AVIF_FUNCTIONS(PG_AVIF_LOAD)
#undef PG_AVIF_LOAD
    char wanted[32];
    snprintf(wanted, sizeof wanted, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
    const char *version = table.avifVersion();
    if (version == NULL || strncmp(version, wanted, strlen(wanted)) != 0) return;
    loaded = &table;
}

const struct pg_avif *pg_avif_load(void) {
    pthread_once(&once, load);
    return loaded;
}
