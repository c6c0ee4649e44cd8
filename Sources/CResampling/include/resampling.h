/* The resampler's inner loop (Sources/PhotoGridDecoding/Processing/Resampler.swift, its one
   caller), in C for one reason: a function can be compiled here for several processors and the
   one that suits the machine chosen when photogrid starts (target_clones), which Swift cannot do.

   Each output row is a sum of source bytes times 32-bit weights. x86-64's baseline (SSE2) has no
   32-bit vector multiply, so the compiler builds each from two 64-bit ones and shuffles. For a
   640x400 picture's 250 rows of 8 taps this function takes 1.09 ms built for the baseline, 0.60
   with SSE4.1's pmulld, 0.33 with AVX2 (clang -O2, this machine's Xeon); the same loop in Swift,
   for the baseline, took 1.60 ms and was 10-13% of a kitty contact sheet's CPU
   (docs/decisions.md, "The resampler's loop for each processor"). */
#ifndef PHOTOGRID_RESAMPLING_H
#define PHOTOGRID_RESAMPLING_H
#include <stdint.h>

/* Row i of `target` (line_bytes long), for i below `rows`: 1 << (precision - 1), plus source rows
   starts[i] + k - first_row (row_bytes apart, k below counts[i]) times taps[i * max_taps + k],
   shifted right by `precision` and clamped to a byte. `sums` holds line_bytes scratch sums. */
void pg_filter_rows(const uint8_t * _Nonnull source, long row_bytes, long line_bytes,
                    const long * _Nonnull starts, const long * _Nonnull counts, const int32_t * _Nonnull taps,
                    long max_taps, long rows, long first_row, int precision,
                    uint8_t * _Nonnull target, int32_t * _Nonnull sums);
#endif
