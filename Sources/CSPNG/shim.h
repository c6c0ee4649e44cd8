/* libspng, for Sources/PhotoGridCore/Decoding/PNG.swift only. It returns error codes (no longjmp),
   so no C layer is needed, unlike libjpeg. */
#include <spng.h>
