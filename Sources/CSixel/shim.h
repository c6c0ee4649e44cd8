/* libsixel, for Sources/PhotoGridCore/Rendering/Sixel.swift only. */
#include <sixel.h>

/* Function-like and composite macros do not reach Swift; these say the same in C. */
static inline int pg_sixel_failed(SIXELSTATUS status) { return SIXEL_FAILED(status); }
static const int pg_sixel_pixelformat_rgb888 = SIXEL_PIXELFORMAT_RGB888;
static const int pg_sixel_pixelformat_pal8 = SIXEL_PIXELFORMAT_PAL8;
/* Exported by libsixel since 1.x but missing from its header: dithers a whole picture to palette
   indexes once, so that Sixel.swift can write it as several narrow pictures (malloc'd; free it). */
sixel_index_t *sixel_dither_apply_palette(sixel_dither_t *dither, unsigned char *pixels, int width, int height);
