/* zlib, for Sources/PhotoGridCore/Rendering/Zlib.swift only: it compresses the pictures sent
   with the kitty graphics protocol (o=z). It returns codes, no longjmp. */
#include <zlib.h>
