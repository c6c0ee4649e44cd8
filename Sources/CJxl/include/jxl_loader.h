/* libjxl's decoder, for Sources/PhotoGridDecoding/Decoding/JXL.swift only. It returns status
   codes (no longjmp) and decodes from memory. Loaded with dlopen the first time a JPEG XL is
   read, not linked, for the reason Sources/CTiff/include/tiff_loader.h gives: libjxl brings
   libhwy and brotli with it, and every start would pay for them. */
#ifndef PHOTOGRID_JXL_LOADER_H
#define PHOTOGRID_JXL_LOADER_H
#include <jxl/decode.h>

#define PG_JXL_FUNCTIONS(X) \
    X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSubscribeEvents) X(JxlDecoderSetInput) \
    X(JxlDecoderCloseInput) X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderImageOutBufferSize) X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderGetICCProfileSize) X(JxlDecoderGetColorAsICCProfile)

#define PG_JXL_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_jxl {
    PG_JXL_FUNCTIONS(PG_JXL_FIELD)
};
#undef PG_JXL_FIELD

/* libjxl's functions, loaded once (thread-safe); NULL when libjxl cannot be loaded. */
const struct pg_jxl * _Nullable pg_jxl_load(void);
#endif
