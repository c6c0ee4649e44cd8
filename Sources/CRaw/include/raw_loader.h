/* LibRaw, for Sources/PhotoGridDecoding/Decoding/RAW.swift only. It returns error codes (no
   longjmp) and reads from memory.

   It is loaded with dlopen the first time a raw file is read, not linked, as libheif is: libraw
   brings libgomp, Little CMS and JasPer with it, which every start of photogrid would load for
   the few folders that hold raw files. The thread-safe build (libraw_r) is loaded, of the version
   whose header this is compiled against: the accessors below read LibRaw's structures, whose
   layout changes between versions. A machine without it still runs photogrid; raw tiles then say
   so. */
#ifndef PHOTOGRID_RAW_LOADER_H
#define PHOTOGRID_RAW_LOADER_H
#include <libraw/libraw.h>

#define PG_RAW_FUNCTIONS(X) \
    X(libraw_init) X(libraw_open_buffer) X(libraw_unpack) X(libraw_unpack_thumb) X(libraw_close) \
    X(libraw_dcraw_process) X(libraw_dcraw_make_mem_image) X(libraw_dcraw_make_mem_thumb) \
    X(libraw_dcraw_clear_mem) X(libraw_strerror)

#define PG_RAW_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_raw {
    PG_RAW_FUNCTIONS(PG_RAW_FIELD)
};
#undef PG_RAW_FIELD

/* LibRaw's functions, loaded once (thread-safe); NULL when it cannot be loaded. */
const struct pg_raw * _Nullable pg_raw_load(void);

/* What RAW.swift reads of an opened file: the picture's size after LibRaw's own crop, its flip
   (0 none, 3 half a turn, 5 a quarter turn to the left, 6 to the right), the camera's maker and
   model, whether it has a thumbnail, and the thumbnail's size. */
int pg_raw_width(libraw_data_t * _Nonnull raw);
int pg_raw_height(libraw_data_t * _Nonnull raw);
int pg_raw_flip(libraw_data_t * _Nonnull raw);
const char * _Nonnull pg_raw_make(libraw_data_t * _Nonnull raw);
const char * _Nonnull pg_raw_model(libraw_data_t * _Nonnull raw);
int pg_raw_thumb_width(libraw_data_t * _Nonnull raw);
int pg_raw_thumb_height(libraw_data_t * _Nonnull raw);
int pg_raw_has_thumb(libraw_data_t * _Nonnull raw);
/* The development photogrid asks for: 8 bits, the camera's white balance, sRGB, turned by the
   file's flip (LibRaw's default), half size when
   `half` (each 2x2 block of the sensor one pixel: four times less work). */
void pg_raw_set_development(libraw_data_t * _Nonnull raw, int half);
#endif
