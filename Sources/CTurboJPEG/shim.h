/* libjpeg-turbo's TurboJPEG API, for its lossless transform (what jpegtran does): unlike the
   libjpeg API it catches libjpeg's longjmp itself and returns -1, so Swift may call it. */
#include <turbojpeg.h>
