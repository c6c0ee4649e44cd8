/* Loads LibRaw on first use: see include/raw_loader.h for why it is not linked. */
#include "raw_loader.h"
#include <dlfcn.h>
#include <pthread.h>

static struct pg_raw table;
static const struct pg_raw *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define PG_STRING(x) #x
#define PG_SONAME(version) "libraw_r.so." PG_STRING(version)

static void load(void) {
    void *library = dlopen(PG_SONAME(LIBRAW_SHLIB_CURRENT), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_RAW_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_RAW_FUNCTIONS(PG_RAW_LOAD)
#undef PG_RAW_LOAD
    loaded = &table;
}

const struct pg_raw *pg_raw_load(void) {
    pthread_once(&once, load);
    return loaded;
}

int pg_raw_width(libraw_data_t *raw) { return raw->sizes.width; }
int pg_raw_height(libraw_data_t *raw) { return raw->sizes.height; }
int pg_raw_flip(libraw_data_t *raw) { return raw->sizes.flip; }
const char *pg_raw_make(libraw_data_t *raw) { return raw->idata.make; }
const char *pg_raw_model(libraw_data_t *raw) { return raw->idata.model; }
int pg_raw_thumb_width(libraw_data_t *raw) { return raw->thumbnail.twidth; }
int pg_raw_thumb_height(libraw_data_t *raw) { return raw->thumbnail.theight; }
int pg_raw_has_thumb(libraw_data_t *raw) { return raw->thumbnail.tlength > 0; }

void pg_raw_set_development(libraw_data_t *raw, int half) {
    raw->params.output_bps = 8;
    raw->params.use_camera_wb = 1;
    raw->params.output_color = 1;   /* sRGB */
    raw->params.half_size = half;
}
