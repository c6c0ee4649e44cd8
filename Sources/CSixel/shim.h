/* libsixel, for Sources/PhotoGridCore/Rendering/Sixel.swift only. */
#include <sixel.h>

/* Function-like and composite macros do not reach Swift; these say the same in C. */
static inline int pg_sixel_failed(SIXELSTATUS status) { return SIXEL_FAILED(status); }
static const int pg_sixel_pixelformat_rgb888 = SIXEL_PIXELFORMAT_RGB888;
