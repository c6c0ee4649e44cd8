/* See include/jpeg_shim.h for why this layer is in C. Every function here follows one shape:
 * a jmp_buf in the error manager, locals that outlive a longjmp marked volatile, sizes checked
 * before anything is allocated, and one cleanup path that destroys the libjpeg object. */
#include "jpeg_shim.h"

#include <errno.h>
#include <setjmp.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

#include "jpeg_fd_source.h"

/* libjpeg's own allocations for one image (coefficient buffers of a progressive file, mostly). */
#define PG_JPEG_MAX_MEMORY (768L * 1024 * 1024)

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    pg_jpeg_status status;
    int allow_truncated;
    const int *cancel;
    char *error;
    size_t error_length;
} pg_error_manager;

static void pg_set_error(pg_error_manager *manager, pg_jpeg_status status, const char *text) {
    manager->status = status;
    if (manager->error && manager->error_length > 0) {
        snprintf(manager->error, manager->error_length, "%s", text);
    }
}

static pg_jpeg_status pg_status_for_code(int code) {
    switch (code) {
    case JERR_NO_SOI: return PG_JPEG_NOT_JPEG;
    case JERR_BAD_PRECISION:
    case JERR_NOT_COMPILED:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NO_ARITH_TABLE:
        return PG_JPEG_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
    case JERR_VIRTUAL_BUG:
        return PG_JPEG_NO_MEMORY;
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return PG_JPEG_TOO_LARGE;
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
        return PG_JPEG_TRUNCATED;
    default: return PG_JPEG_CORRUPT;
    }
}

static void pg_error_exit(j_common_ptr cinfo) {
    pg_error_manager *manager = (pg_error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    pg_set_error(manager, pg_status_for_code(cinfo->err->msg_code), text);
    longjmp(manager->jump, 1);
}

/* Warnings do not stop libjpeg. A premature end of data does stop us unless the caller asked
 * for what is there; the other corrupt-data warnings are common in real camera files and the
 * image is still fine, so they pass silently. */
static void pg_emit_message(j_common_ptr cinfo, int level) {
    pg_error_manager *manager = (pg_error_manager *)cinfo->err;
    if (level == -1 && cinfo->err->msg_code == JWRN_JPEG_EOF && !manager->allow_truncated) {
        pg_set_error(manager, PG_JPEG_TRUNCATED, "the file ends before the image does");
        longjmp(manager->jump, 1);
    }
}

static void pg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* Called by libjpeg as it reads and as it writes rows (once per row of blocks and per marker):
   stops a file with more scans than PG_JPEG_MAX_SCANS, and a decode whose caller no longer wants
   it. Our error manager is reached through cinfo->err. */
static void pg_count_scans(j_common_ptr cinfo) {
    pg_error_manager *manager = (pg_error_manager *)cinfo->err;
    if (manager->cancel && __atomic_load_n(manager->cancel, __ATOMIC_RELAXED)) {
        pg_set_error(manager, PG_JPEG_CANCELLED, "cancelled");
        longjmp(manager->jump, 1);
    }
    if (!cinfo->is_decompressor || ((j_decompress_ptr)cinfo)->input_scan_number <= PG_JPEG_MAX_SCANS) return;
    pg_set_error(manager, PG_JPEG_CORRUPT, "more scans than any encoder writes");
    longjmp(manager->jump, 1);
}

void pg_jpeg_cancel(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
int pg_jpeg_is_cancelled(const int *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }

static void pg_init_errors(pg_error_manager *manager, char *error, size_t error_length) {
    memset(manager, 0, sizeof(*manager));
    jpeg_std_error(&manager->base);
    manager->base.error_exit = pg_error_exit;
    manager->base.emit_message = pg_emit_message;
    manager->base.output_message = pg_output_message;
    manager->status = PG_JPEG_OK;
    manager->error = error;
    manager->error_length = error_length;
    if (error && error_length > 0) error[0] = 0;
}

static const unsigned char pg_exif_header[6] = {'E', 'x', 'i', 'f', 0, 0};

/* Copies the first Exif APP1 payload (after "Exif\0\0") out of libjpeg's pool. */
static int pg_copy_exif(j_decompress_ptr cinfo, pg_jpeg_header *header) {
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < sizeof(pg_exif_header)) continue;
        if (memcmp(marker->data, pg_exif_header, sizeof(pg_exif_header)) != 0) continue;
        size_t length = marker->data_length - sizeof(pg_exif_header);
        header->exif = malloc(length > 0 ? length : 1);
        if (!header->exif) return 0;
        memcpy(header->exif, marker->data + sizeof(pg_exif_header), length);
        header->exif_length = length;
        return 1;
    }
    return 1;
}

pg_jpeg_status pg_jpeg_read_header(const unsigned char *data, size_t length, long long max_pixels,
                                   pg_jpeg_header *header, char *error, size_t error_length) {
    struct jpeg_decompress_struct cinfo;
    pg_error_manager manager;
    memset(header, 0, sizeof(*header));
    pg_init_errors(&manager, error, error_length);
    if (length == 0) {
        pg_set_error(&manager, PG_JPEG_EMPTY, "empty file");
        return manager.status;
    }
    cinfo.err = &manager.base;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        pg_jpeg_free_header(header);
        return manager.status;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.mem->max_memory_to_use = PG_JPEG_MAX_MEMORY;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    header->width = (int)cinfo.image_width;
    header->height = (int)cinfo.image_height;
    header->components = cinfo.num_components;
    header->progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    if ((long long)cinfo.image_width * (long long)cinfo.image_height > max_pixels) {
        pg_set_error(&manager, PG_JPEG_TOO_LARGE, "image dimensions are too large");
    } else if (!pg_copy_exif(&cinfo, header)) {
        pg_set_error(&manager, PG_JPEG_NO_MEMORY, "out of memory");
    }
    jpeg_destroy_decompress(&cinfo);
    if (manager.status != PG_JPEG_OK) pg_jpeg_free_header(header);
    return manager.status;
}

void pg_jpeg_free_header(pg_jpeg_header *header) {
    free(header->exif);
    header->exif = NULL;
    header->exif_length = 0;
}

/* CMYK from libjpeg is as stored; Adobe's writers store it inverted (the common case). */
static void pg_cmyk_row_to_rgb(const unsigned char *cmyk, unsigned char *rgb, int width, int inverted) {
    for (int x = 0; x < width; x++) {
        int c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        rgb[3 * x] = (unsigned char)((c * k + 127) / 255);
        rgb[3 * x + 1] = (unsigned char)((m * k + 127) / 255);
        rgb[3 * x + 2] = (unsigned char)((y * k + 127) / 255);
    }
}

/* The position in the block (row * 8 + column) of each coefficient in JPEG's zigzag order. */
static const int pg_zigzag_to_natural[64] = {
     0,  1,  8, 16,  9,  2,  3, 10, 17, 24, 32, 25, 18, 11,  4,  5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13,  6,  7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63
};

/* Whether every coefficient that an IDCT scaled to k/8 reads (the top-left k x k of the block)
   has begun to arrive, in every component. coef_bits is indexed in zigzag order; -1 is none yet. */
static int pg_scaled_coefficients_present(j_decompress_ptr cinfo, int k) {
    if (!cinfo->coef_bits) return 0;
    for (int c = 0; c < cinfo->num_components; c++) {
        for (int z = 0; z < 64; z++) {
            int natural = pg_zigzag_to_natural[z];
            if (natural / 8 < k && natural % 8 < k && cinfo->coef_bits[c][z] < 0) return 0;
        }
    }
    return 1;
}

static pg_jpeg_status pg_decode(const unsigned char *data, size_t length, int fd, const pg_jpeg_decode_options *options,
                                pg_jpeg_image *image, char *error, size_t error_length);

pg_jpeg_status pg_jpeg_decode(const unsigned char *data, size_t length, const pg_jpeg_decode_options *options,
                              pg_jpeg_image *image, char *error, size_t error_length) {
    return pg_decode(data, length, -1, options, image, error, error_length);
}

pg_jpeg_status pg_jpeg_decode_fd(int fd, const pg_jpeg_decode_options *options,
                                 pg_jpeg_image *image, char *error, size_t error_length) {
    return pg_decode(NULL, 0, fd, options, image, error, error_length);
}

/* One decode from memory (fd < 0) or from a file descriptor. */
static pg_jpeg_status pg_decode(const unsigned char *data, size_t length, int fd, const pg_jpeg_decode_options *options,
                                pg_jpeg_image *image, char *error, size_t error_length) {
    struct jpeg_decompress_struct cinfo;
    pg_error_manager manager;
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile cmyk_row = NULL;
    struct jpeg_progress_mgr progress;
    memset(&progress, 0, sizeof(progress));
    progress.progress_monitor = pg_count_scans;
    memset(image, 0, sizeof(*image));
    pg_init_errors(&manager, error, error_length);
    manager.allow_truncated = options->allow_truncated;
    manager.cancel = options->cancel;
    if (fd < 0 && length == 0) {
        pg_set_error(&manager, PG_JPEG_EMPTY, "empty file");
        return manager.status;
    }
    cinfo.err = &manager.base;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        free(cmyk_row);
        return manager.status;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.mem->max_memory_to_use = PG_JPEG_MAX_MEMORY;
    cinfo.progress = &progress;
    if (fd >= 0) pg_fd_src(&cinfo, fd);
    else jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);

    if ((long long)cinfo.image_width * (long long)cinfo.image_height > options->max_pixels) {
        pg_set_error(&manager, PG_JPEG_TOO_LARGE, "image dimensions are too large");
        longjmp(manager.jump, 1);
    }
    int is_cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = is_cmyk ? JCS_CMYK : JCS_RGB;
    int scale = options->scale_num;
    cinfo.scale_num = (unsigned int)(scale < 1 ? 1 : scale > 16 ? 16 : scale);
    cinfo.scale_denom = 8;
    if (options->fast) {
        cinfo.dct_method = JDCT_IFAST;
        cinfo.do_fancy_upsampling = FALSE;
        cinfo.do_block_smoothing = FALSE;
    }
    jpeg_calc_output_dimensions(&cinfo);
    long long out_pixels = (long long)cinfo.output_width * (long long)cinfo.output_height;
    if (out_pixels > options->max_pixels || cinfo.output_width == 0 || cinfo.output_height == 0) {
        pg_set_error(&manager, PG_JPEG_TOO_LARGE, "image dimensions are too large");
        longjmp(manager.jump, 1);
    }
    size_t stride = (size_t)cinfo.output_width * 3;
    pixels = malloc(stride * cinfo.output_height);
    if (is_cmyk) cmyk_row = malloc((size_t)cinfo.output_width * 4);
    if (!pixels || (is_cmyk && !cmyk_row)) {
        pg_set_error(&manager, PG_JPEG_NO_MEMORY, "out of memory");
        longjmp(manager.jump, 1);
    }

    int partial = options->partial_scans && cinfo.scale_num <= 2 && jpeg_has_multiple_scans(&cinfo);
    cinfo.buffered_image = partial ? TRUE : FALSE;
    jpeg_start_decompress(&cinfo);
    if (partial) {
        /* Read scans until the coefficients the scaled IDCT uses have arrived, then draw the
           picture as it stands, less the later refinement bits of those coefficients. */
        for (;;) {
            int status = jpeg_consume_input(&cinfo);
            pg_count_scans((j_common_ptr)&cinfo);
            if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
            if (status == JPEG_SCAN_COMPLETED && pg_scaled_coefficients_present(&cinfo, (int)cinfo.scale_num)) break;
        }
        image->scans_read = cinfo.input_scan_number;
        jpeg_start_output(&cinfo, cinfo.input_scan_number);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        unsigned char *row = pixels + stride * cinfo.output_scanline;
        JSAMPROW target = is_cmyk ? cmyk_row : row;
        if (jpeg_read_scanlines(&cinfo, &target, 1) != 1) break;
        if (is_cmyk) pg_cmyk_row_to_rgb(cmyk_row, row, (int)cinfo.output_width, cinfo.saw_Adobe_marker);
    }
    if (!partial) image->scans_read = cinfo.input_scan_number;
    if (partial) {
        jpeg_finish_output(&cinfo);
        jpeg_abort_decompress(&cinfo);   /* the rest of the file is not needed */
    } else {
        jpeg_finish_decompress(&cinfo);
    }

    image->pixels = pixels;
    image->width = (int)cinfo.output_width;
    image->height = (int)cinfo.output_height;
    pixels = NULL;
    jpeg_destroy_decompress(&cinfo);
    free(cmyk_row);
    return PG_JPEG_OK;
}

pg_jpeg_status pg_jpeg_encode(const unsigned char *rgb, int width, int height, int quality, int progressive,
                              int optimize,
                              const unsigned char *app1, size_t app1_length,
                              unsigned char **output, size_t *output_length, char *error, size_t error_length) {
    struct jpeg_compress_struct cinfo;
    pg_error_manager manager;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_length = 0;
    *output = NULL;
    *output_length = 0;
    pg_init_errors(&manager, error, error_length);
    if (width <= 0 || height <= 0 || width > 65500 || height > 65500 || app1_length > 65533) {
        pg_set_error(&manager, PG_JPEG_TOO_LARGE, "cannot encode an image of that size");
        return manager.status;
    }
    cinfo.err = &manager.base;
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return manager.status;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, &buffer_length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = optimize ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (app1 && app1_length > 0) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, app1, (unsigned int)app1_length);
    size_t stride = (size_t)width * 3;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + stride * cinfo.next_scanline);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *output = buffer;
    *output_length = buffer_length;
    return PG_JPEG_OK;
}

void pg_jpeg_free(void *pointer) { free(pointer); }
