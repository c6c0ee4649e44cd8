/* libjxl's decoder, for Sources/PhotoGridDecoding/Decoding/JXL.swift only. It returns status codes
   (no longjmp) and decodes from memory. */
#include <jxl/decode.h>
