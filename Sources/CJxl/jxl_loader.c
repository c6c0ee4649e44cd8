/* Loads libjxl on first use: see include/jxl_loader.h for why it is not linked. */
#include "jxl_loader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <jxl/version.h>

#define PG_STRING(x) #x
#define PG_SONAME(major, minor) "libjxl.so." PG_STRING(major) "." PG_STRING(minor)

static struct pg_jxl table;
static const struct pg_jxl *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    /* The version whose header this is compiled against ("libjxl.so.0.7" on Debian 12): the
       structures JXL.swift fills are laid out as that header says. */
    void *library = dlopen(PG_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_JXL_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_JXL_FUNCTIONS(PG_JXL_LOAD)
#undef PG_JXL_LOAD
    loaded = &table;
}

const struct pg_jxl *pg_jxl_load(void) {
    pthread_once(&once, load);
    return loaded;
}
