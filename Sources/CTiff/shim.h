/* libtiff, for Sources/PhotoGridDecoding/Decoding/TIFF.swift only. It returns error codes (no
   longjmp) and reads through callbacks, so a TIFF is read from memory. Its tag getter is variadic,
   which Swift cannot call: the few tags photogrid reads go through the inline functions below. */
#include <tiffio.h>
#include <stdint.h>

static inline int pg_tiff_size(TIFF *tiff, uint32_t *width, uint32_t *height) {
    return TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, width) == 1 && TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, height) == 1;
}

/* The Orientation tag, 1 (top left) when there is none. */
static inline uint16_t pg_tiff_orientation(TIFF *tiff) {
    uint16_t orientation = ORIENTATION_TOPLEFT;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    return orientation;
}
