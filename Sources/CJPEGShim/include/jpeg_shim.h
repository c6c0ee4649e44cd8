/* A small C layer over libjpeg-turbo's libjpeg API.
 *
 * Why C: libjpeg reports fatal errors through its error manager's error_exit, whose default
 * calls exit(). Recovering needs setjmp/longjmp, which Swift cannot use, so every libjpeg call
 * lives here behind a jmp_buf and returns a status instead. We use the libjpeg API rather than
 * TurboJPEG because it can keep APP markers (EXIF) in the same pass and, later, decode only the
 * first scans of a progressive file (buffered-image mode).
 */
#ifndef PG_JPEG_SHIM_H
#define PG_JPEG_SHIM_H
#include <stddef.h>

/* Why a call failed. */
typedef enum {
    PG_JPEG_OK = 0,
    PG_JPEG_NOT_JPEG = 1,     /* no SOI marker: another format or random bytes */
    PG_JPEG_CORRUPT = 2,      /* libjpeg gave up on the data */
    PG_JPEG_TRUNCATED = 3,    /* the data ends before the image does */
    PG_JPEG_UNSUPPORTED = 4,  /* valid JPEG, but a kind libjpeg-turbo cannot decode (12-bit...) */
    PG_JPEG_TOO_LARGE = 5,    /* dimensions past the caller's pixel cap */
    PG_JPEG_NO_MEMORY = 6,
    PG_JPEG_EMPTY = 7,        /* no data at all: an empty file */
    PG_JPEG_CANCELLED = 8     /* the caller's cancel flag was set while decoding */
} pg_jpeg_status;

typedef struct {
    int width;                 /* as stored, before any EXIF orientation */
    int height;
    int components;            /* 1 grey, 3 colour, 4 CMYK/YCCK */
    int progressive;
    unsigned char *exif;       /* APP1 "Exif\0\0" payload after that header, or NULL; free with pg_jpeg_free_header */
    size_t exif_length;
} pg_jpeg_header;

typedef struct {
    int scale_num;             /* output scale is scale_num/8, 1...16 */
    int fast;                  /* fast integer IDCT and plain upsampling: for small thumbnails */
    int allow_truncated;       /* decode what is there (grey below) instead of failing */
    int partial_scans;         /* progressive files at scales up to 2/8: stop reading once every
                                  coefficient the scaled IDCT uses (the top-left k x k of each block at
                                  k/8) has arrived, at whatever precision (buffered-image mode). At 1/8
                                  a pixel is a block's DC value, so the AC scans would change nothing */
    long long max_pixels;      /* refuse if width*height of the output or input exceeds this */
    const int *cancel;         /* NULL, or a flag read (atomically) as the decode goes, once per row
                                  of blocks: set to 1 by pg_jpeg_cancel from another thread, the
                                  decode stops with PG_JPEG_CANCELLED */
} pg_jpeg_decode_options;

/* Sets and reads a cancel flag, from any thread. */
void pg_jpeg_cancel(int *flag);
int pg_jpeg_is_cancelled(const int *flag);

/* Files with more scans than this are refused (PG_JPEG_CORRUPT): encoders write 10 to 30, and
   each scan is a pass over every block, so a small file repeating a tiny scan thousands of times
   would keep a decoder busy for minutes (libjpeg-turbo's djpeg has -maxscans for the same reason). */
#define PG_JPEG_MAX_SCANS 200

typedef struct {
    unsigned char *pixels;     /* RGB888, rows packed, width*3 bytes each; free with pg_jpeg_free */
    int width;
    int height;
    int scans_read;            /* scans consumed: fewer than the file has when dc_scans_only cut it short */
} pg_jpeg_image;

/* Reads markers up to the first scan. error gets a message of at most error_length bytes. */
pg_jpeg_status pg_jpeg_read_header(const unsigned char *data, size_t length, long long max_pixels,
                                   pg_jpeg_header *header, char *error, size_t error_length);
void pg_jpeg_free_header(pg_jpeg_header *header);

pg_jpeg_status pg_jpeg_decode(const unsigned char *data, size_t length, const pg_jpeg_decode_options *options,
                              pg_jpeg_image *image, char *error, size_t error_length);

/* The same, reading the file open on `fd` from its start in 64 KB chunks: no copy of the whole
   file in memory, and a progressive file cut short by partial_scans is only read that far. */
pg_jpeg_status pg_jpeg_decode_fd(int fd, const pg_jpeg_decode_options *options,
                                 pg_jpeg_image *image, char *error, size_t error_length);

/* Encodes RGB888 pixels; app1 (may be NULL) is written as one APP1 segment, e.g. "Exif\0\0" + TIFF.
   optimize: Huffman tables made for this image (a second pass: about 3x the time, 2-3% fewer
   bytes); a progressive file always has them. */
pg_jpeg_status pg_jpeg_encode(const unsigned char *rgb, int width, int height, int quality, int progressive,
                              int optimize,
                              const unsigned char *app1, size_t app1_length,
                              unsigned char **output, size_t *output_length, char *error, size_t error_length);

void pg_jpeg_free(void *pointer);

#endif
