/* Loads libtiff on first use: see include/tiff_loader.h for why it is not linked. */
#include "tiff_loader.h"
#include <dlfcn.h>
#include <pthread.h>

static struct pg_tiff table;
static const struct pg_tiff *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libtiff.so.6", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_TIFF_LOAD(name) if ((table.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_TIFF_FUNCTIONS(PG_TIFF_LOAD)
#undef PG_TIFF_LOAD
    loaded = &table;
}

const struct pg_tiff *pg_tiff_load(void) {
    pthread_once(&once, load);
    return loaded;
}

int pg_tiff_size(const struct pg_tiff *library, TIFF *tiff, uint32_t *width, uint32_t *height) {
    return library->TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, width) == 1 && library->TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, height) == 1;
}

uint16_t pg_tiff_orientation(const struct pg_tiff *library, TIFF *tiff) {
    uint16_t orientation = ORIENTATION_TOPLEFT;
    library->TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    return orientation;
}

const void *pg_tiff_profile(const struct pg_tiff *library, TIFF *tiff, uint32_t *length) {
    void *data = NULL;
    *length = 0;
    if (library->TIFFGetField(tiff, TIFFTAG_ICCPROFILE, length, &data) != 1 || *length == 0) return NULL;
    return data;
}
