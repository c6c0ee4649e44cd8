/* libheif, for Sources/PhotoGridCore/Decoding/HEIF.swift only. It returns error structs (no
   longjmp) and decodes HEIC through libde265 and AVIF through dav1d or libaom, as Debian builds it. */
#include <libheif/heif.h>
