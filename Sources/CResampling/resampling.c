/* See include/resampling.h for why this loop is C. */
#include "resampling.h"

/* Compiled three times on x86-64; the dynamic loader picks the best the processor has. */
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "sse4.1", "default")))
#endif
void pg_filter_rows(const uint8_t *restrict source, long row_bytes, long line_bytes,
                    const long *restrict starts, const long *restrict counts, const int32_t *restrict taps,
                    long max_taps, long rows, long first_row, int precision,
                    uint8_t *restrict target, int32_t *restrict sums) {
    /* Summed as unsigned numbers, which wrap where a signed overflow would be undefined; the
       weights of a row add up to about 1 << precision, so a sum stays far from wrapping, and
       the bits are those of the signed sum either way. */
    uint32_t *restrict sum = (uint32_t *)sums;
    const uint32_t half = (uint32_t)1 << (precision - 1);
    for (long i = 0; i < rows; i++) {
        for (long j = 0; j < line_bytes; j++) sum[j] = half;
        for (long k = 0; k < counts[i]; k++) {
            const uint32_t weight = (uint32_t)taps[i * max_taps + k];
            const uint8_t *restrict row = source + (starts[i] + k - first_row) * row_bytes;
            for (long j = 0; j < line_bytes; j++) sum[j] += (uint32_t)row[j] * weight;
        }
        uint8_t *restrict line = target + i * line_bytes;
        for (long j = 0; j < line_bytes; j++) {
            const int32_t value = (int32_t)sum[j] >> precision;
            line[j] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
        }
    }
}
