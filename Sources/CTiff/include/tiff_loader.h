/* libtiff, for Sources/PhotoGridDecoding/Decoding/TIFF.swift only. It returns error codes (no
   longjmp) and reads through callbacks, so a TIFF is read from memory.

   It is loaded with dlopen the first time a TIFF is read, not linked: libtiff brings seven
   libraries with it (zstd, lzma, Lerc, jbig, deflate...), and libjxl five more, which every start
   of photogrid paid for (measured: 16.5 to 19 ms for `--version`, a 6-column first screen of
   EXIF thumbnails 20 to 27 ms) for the few folders that hold a TIFF. A machine without libtiff
   still runs photogrid; TIFF tiles then say so. */
#ifndef PHOTOGRID_TIFF_LOADER_H
#define PHOTOGRID_TIFF_LOADER_H
#include <tiffio.h>
#include <stdint.h>

#define PG_TIFF_FUNCTIONS(X) \
    X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetMaxSingleMemAlloc) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFClientOpenExt) \
    X(TIFFClose) X(TIFFRGBAImageOK) X(TIFFReadRGBAImageOriented) X(TIFFGetField) X(TIFFGetFieldDefaulted)

#define PG_TIFF_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_tiff {
    PG_TIFF_FUNCTIONS(PG_TIFF_FIELD)
};
#undef PG_TIFF_FIELD

/* libtiff's functions, loaded once (thread-safe); NULL when libtiff.so.6 cannot be loaded. */
const struct pg_tiff * _Nullable pg_tiff_load(void);

/* The tags photogrid reads, through libtiff's variadic getter, which Swift cannot call: the
   size (1 when both are there) and the Orientation, 1 (top left) when there is none. */
int pg_tiff_size(const struct pg_tiff * _Nonnull library, TIFF * _Nonnull tiff, uint32_t * _Nonnull width, uint32_t * _Nonnull height);
uint16_t pg_tiff_orientation(const struct pg_tiff * _Nonnull library, TIFF * _Nonnull tiff);
/* The ICC profile (tag 34675) and its length; NULL when there is none. Valid while the file is open. */
const void * _Nullable pg_tiff_profile(const struct pg_tiff * _Nonnull library, TIFF * _Nonnull tiff, uint32_t * _Nonnull length);
#endif
