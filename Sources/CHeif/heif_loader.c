/* Loads libheif on first use: see include/heif_loader.h for why it is not linked. */
#include "heif_loader.h"
#include <dlfcn.h>
#include <pthread.h>

static struct pg_heif table;
static const struct pg_heif *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    /* RTLD_LOCAL: libheif's symbols stay out of the global namespace, where they could clash
       with another library's. Never closed: its codecs keep global state for the process. */
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_HEIF_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_HEIF_FUNCTIONS(PG_HEIF_LOAD)
#undef PG_HEIF_LOAD
    loaded = &table;
}

const struct pg_heif *pg_heif_load(void) {
    pthread_once(&once, load);
    return loaded;
}
