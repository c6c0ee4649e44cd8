/* Little CMS, for Sources/PhotoGridDecoding/Processing/ColourProfile.swift only. It returns NULL
   or FALSE on errors (no longjmp). Its pixel-format constants are macros Swift cannot import:
   the one photogrid uses comes through the inline function below. */
#include <lcms2.h>

static inline cmsUInt32Number pg_lcms_rgb8(void) { return TYPE_RGB_8; }
