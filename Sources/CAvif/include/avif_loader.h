/* libavif, for Sources/PhotoGridCore/Decoding/AVIF.swift only. It returns result codes (no
   longjmp) and decodes AV1 through dav1d, which Debian builds it with.

   AVIF goes through libavif rather than libheif because libheif 1.15's way to dav1d took 3.5
   times the CPU for the same pictures (18 AVIFs of 3840 px: 1.48 s against 0.42 s, one thread
   each, measured here). libheif still reads AVIF's thumbnails, metadata and what libavif cannot.

   Loaded with dlopen on first use, not linked: libavif brings every AV1 codec Debian builds it
   with (aom, rav1e, SVT-AV1, libgav1, abseil), which every start of photogrid would load. A
   machine without libavif still shows AVIF, through libheif. */
#ifndef PHOTOGRID_AVIF_LOADER_H
#define PHOTOGRID_AVIF_LOADER_H
#include <avif/avif.h>

/* Every libavif function AVIF.swift calls, typed from libavif's own declarations. */
#define PG_AVIF_FUNCTIONS(X) \
    X(avifVersion) X(avifDecoderCreate) X(avifDecoderDestroy) X(avifDecoderSetIOMemory) \
    X(avifDecoderParse) X(avifDecoderNextImage) X(avifResultToString) \
    X(avifCropRectConvertCleanApertureBox) X(avifImageCreateEmpty) X(avifImageDestroy) X(avifImageSetViewRect)

#define PG_AVIF_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_avif {
    PG_AVIF_FUNCTIONS(PG_AVIF_FIELD)
};
#undef PG_AVIF_FIELD

/* `imir`'s value (0: top and bottom exchanged, 1: left and right), whose field libavif 0.11
   calls `mode` and 1.0 and later (Debian 13, Ubuntu 24.04) `axis` again. */
static inline uint8_t pg_avif_mirror(const avifImage * _Nonnull image) {
#if AVIF_VERSION_MAJOR >= 1
    return image->imir.axis;
#else
    return image->imir.mode;
#endif
}

/* libavif's functions, loaded once (thread-safe); NULL when no libavif of the version these
   headers describe can be loaded (its structures' layout changes between versions). */
const struct pg_avif * _Nullable pg_avif_load(void);

#endif
