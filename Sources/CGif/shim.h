/* giflib, for Sources/PhotoGridCore/Decoding/GIF.swift only. It returns error codes (no longjmp)
   and reads through a callback, so a GIF is read from memory without a temporary file. */
#include <gif_lib.h>
