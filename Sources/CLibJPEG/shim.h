/* libjpeg-turbo's libjpeg API. Only the C target CJPEGShim includes it: libjpeg reports
   errors through longjmp, which Swift cannot use, so no Swift file calls it directly. */
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#include <jerror.h>
