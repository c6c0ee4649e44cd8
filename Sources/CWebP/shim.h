/* libwebp and its demuxer, for Sources/PhotoGridCore/Decoding/WebP.swift only. libwebp returns
   status codes (no longjmp); its inline helpers (WebPInitDecoderConfig, WebPGetFeatures,
   WebPDemux) reach Swift as they are. */
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
