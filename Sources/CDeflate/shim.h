/* libdeflate, for Sources/PhotoGridDecoding/Decoding/Deflate.swift only: it deflates the PNG
   pictures sent to kitty and iTerm2, whole buffers at a time. It returns sizes, no longjmp. */
#include <libdeflate.h>
