/* A libheif decoder plugin for HEVC (libheif/heif_plugin.h) that hands libde265's YCbCr planes
   to photogrid untouched. libheif 1.15 converts every decoded HEVC picture to RGB 4:4:4 and, asked
   for YCbCr, back again, each at full size and the second with its own default matrix (its
   heif_context.cc, decode_image_planar): a third of a HEIC decode's time. Here the planes leave the
   decoder labelled as planar RGB 4:4:4, which libheif passes through unconverted, through grid
   assembly and its transforms alike: R holds Y, G Cb and B Cr, the chroma repeated to full size.
   HEIF.swift converts them itself with the file's matrix. Only HEIF.swift's planar path registers
   it, on its own context, and reads the planes that way.

   The preview variant also switches off libde265's in-loop filters (deblocking, sample adaptive
   offset), for pictures wanted shrunk by four or more: they smooth block edges and banding a few
   pixels wide, which the averaging removes anyway. Without them libde265 takes 47 instead of
   116 ms on a 3840x2400 picture (measured here with libde265-dec265). */
#include "heif_loader.h"
#include <libheif/heif_plugin.h>
#include <libde265/de265.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PG_DE265_FUNCTIONS(X) \
    X(de265_get_version_number_major) X(de265_new_decoder) X(de265_free_decoder) X(de265_set_parameter_bool) \
    X(de265_push_NAL) X(de265_flush_data) X(de265_decode) X(de265_get_next_picture) X(de265_release_next_picture) \
    X(de265_get_image_width) X(de265_get_image_height) X(de265_get_chroma_format) X(de265_get_bits_per_pixel) \
    X(de265_get_image_plane) X(de265_get_image_full_range_flag) X(de265_get_image_matrix_coefficients)

#define PG_DE265_FIELD(name) __typeof__(name) *name;
static struct { PG_DE265_FUNCTIONS(PG_DE265_FIELD) } de265;
#undef PG_DE265_FIELD
static const struct pg_heif *heif;
static int available;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    heif = pg_heif_load();
    if (heif == NULL) return;
    /* Up to 1.15, heif_register_decoder registers for the one context it is given. From 1.16 on
       it registers for the whole process (its heif.cc), and these planes would then reach paths
       that read libheif's RGB (pictures with alpha, thumbnails): there the plugin is not used. */
    if (heif->heif_get_version_number() >= 0x01100000) return;
    /* libheif has loaded libde265 already: this finds the same copy. */
    void *library = dlopen("libde265.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_DE265_LOAD(name) if ((de265.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_DE265_FUNCTIONS(PG_DE265_LOAD)
#undef PG_DE265_LOAD
    available = de265.de265_get_version_number_major() == 1;
}

static struct heif_error failure(const char *message) {
    struct heif_error error = { heif_error_Decoder_plugin_error, heif_suberror_Unspecified, message };
    return error;
}

/* DE265_OK or a warning (numbered from 1000), as libde265's de265_isOK has it. */
static int fine(de265_error error) { return error == DE265_OK || error >= 1000; }

static const struct heif_error ok = { heif_error_Ok, heif_suberror_Unspecified, "" };

static const char *plugin_name(void) { return "photogrid: libde265's YCbCr planes, unconverted"; }

static int supports(enum heif_compression_format format) {
    /* Above libheif's own decoders (100): on the contexts it is registered on, it is the one used. */
    return format == heif_compression_HEVC ? 200 : 0;
}

static struct heif_error start(void **out, int filters) {
    de265_decoder_context *context = de265.de265_new_decoder();
    if (context == NULL) return failure("libde265 could not start a decoder");
    de265.de265_set_parameter_bool(context, DE265_DECODER_PARAM_DISABLE_DEBLOCKING, !filters);
    de265.de265_set_parameter_bool(context, DE265_DECODER_PARAM_DISABLE_SAO, !filters);
    *out = context;
    return ok;
}

static struct heif_error new_exact_decoder(void **out) { return start(out, 1); }
static struct heif_error new_preview_decoder(void **out) { return start(out, 0); }

static void free_decoder(void *decoder) { de265.de265_free_decoder(decoder); }

/* libheif hands over NAL units each behind a four-byte big-endian length: the parameter sets
   from `hvcC`, then the picture's own. */
static struct heif_error push_data(void *decoder, const void *data, size_t size) {
    const uint8_t *at = data;
    while (size >= 4) {
        size_t length = (size_t)at[0] << 24 | (size_t)at[1] << 16 | (size_t)at[2] << 8 | at[3];
        at += 4; size -= 4;
        if (length > size || length > INT_MAX) return failure("a NAL unit runs past the end of the data");
        if (!fine(de265.de265_push_NAL(decoder, at, (int)length, 0, NULL))) return failure("libde265 refused a NAL unit");
        at += length; size -= length;
    }
    return ok;
}

/* The decoded picture's planes copied into a libheif picture: Y, Cb and Cr as planar RGB 4:4:4
   (the top comment says why), or Y alone for a grey picture. */
static struct heif_error copy_out(const struct de265_image *picture, struct heif_image **out) {
    enum de265_chroma chroma = de265.de265_get_chroma_format(picture);
    if ((int)chroma < 0 || (int)chroma > 3) return failure("unknown chroma format");
    int grey = chroma == de265_chroma_mono;
    int width = de265.de265_get_image_width(picture, 0), height = de265.de265_get_image_height(picture, 0);
    struct heif_image *image = NULL;
    struct heif_error error = heif->heif_image_create(width, height, grey ? heif_colorspace_monochrome : heif_colorspace_RGB,
                                                      grey ? heif_chroma_monochrome : heif_chroma_444, &image);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel as[] = { heif_channel_R, heif_channel_G, heif_channel_B };
    for (int c = 0; c < (grey ? 1 : 3); c++) {
        int w = de265.de265_get_image_width(picture, c), h = de265.de265_get_image_height(picture, c);
        int bits = de265.de265_get_bits_per_pixel(picture, c);
        int source_stride = 0;
        const uint8_t *source = de265.de265_get_image_plane(picture, c, &source_stride);
        int bytes = bits > 8 ? 2 : 1;
        /* Subsampled chroma is half the luma's width (4:2:0, 4:2:2) and height (4:2:0), rounded up. */
        int shift_x = w < width ? 1 : 0, shift_y = h < height ? 1 : 0;
        if (source == NULL || w <= 0 || h <= 0 || bits < 1 || bits > 16 || ((width - 1) >> shift_x) >= w || ((height - 1) >> shift_y) >= h
            || source_stride < w * bytes) {
            heif->heif_image_release(image);
            return failure("no pixels");
        }
        error = heif->heif_image_add_plane(image, grey ? heif_channel_Y : as[c], width, height, bits);
        if (error.code != heif_error_Ok) { heif->heif_image_release(image); return error; }
        int stride = 0;
        uint8_t *plane = heif->heif_image_get_plane(image, grey ? heif_channel_Y : as[c], &stride);
        /* libde265's strides are in bytes, two bytes a sample past 8 bits, as libheif keeps them. */
        if (plane == NULL || stride < width * bytes) { heif->heif_image_release(image); return failure("no pixels"); }
        for (int y = 0; y < height; y++) {
            const uint8_t *from = source + (size_t)(y >> shift_y) * source_stride;
            uint8_t *to = plane + (size_t)y * stride;
            if (shift_x == 0) { memcpy(to, from, (size_t)width * bytes); continue; }
            if (bytes == 1) {
                for (int x = 0; x < width; x++) to[x] = from[x >> 1];
            } else {
                for (int x = 0; x < width; x++) { to[2 * x] = from[2 * (x >> 1)]; to[2 * x + 1] = from[2 * (x >> 1) + 1]; }
            }
        }
    }
    struct heif_color_profile_nclx *nclx = heif->heif_nclx_color_profile_alloc();
    if (nclx != NULL) {
        /* The stream's own matrix and range: HEIF.swift reads them when the file has no `colr`. */
        heif->heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)de265.de265_get_image_matrix_coefficients(picture));
        nclx->full_range_flag = (uint8_t)de265.de265_get_image_full_range_flag(picture);
        heif->heif_image_set_nclx_color_profile(image, nclx);
        heif->heif_nclx_color_profile_free(nclx);
    }
    *out = image;
    return ok;
}

static struct heif_error decode_image(void *decoder, struct heif_image **out) {
    *out = NULL;
    de265.de265_flush_data(decoder);
    int more = 1;
    while (more) {
        more = 0;
        de265_error error = de265.de265_decode(decoder, &more);
        if (error == DE265_ERROR_WAITING_FOR_INPUT_DATA) break;
        if (!fine(error)) return failure("libde265 could not decode the picture");
        const struct de265_image *picture = de265.de265_get_next_picture(decoder);
        if (picture != NULL) {
            if (*out != NULL) heif->heif_image_release(*out);
            struct heif_error copied = copy_out(picture, out);
            de265.de265_release_next_picture(decoder);
            if (copied.code != heif_error_Ok) return copied;
        }
    }
    return *out != NULL ? ok : failure("libde265 gave no picture");
}

static void set_strict(void *decoder, int flag) { (void)decoder; (void)flag; }

#define PG_PLUGIN(starts) { \
    .plugin_api_version = 2, .get_plugin_name = plugin_name, .does_support_format = supports, \
    .new_decoder = starts, .free_decoder = free_decoder, .push_data = push_data, \
    .decode_image = decode_image, .set_strict_decoding = set_strict }
static const struct heif_decoder_plugin exact = PG_PLUGIN(new_exact_decoder);
static const struct heif_decoder_plugin preview = PG_PLUGIN(new_preview_decoder);

const struct heif_decoder_plugin *pg_heif_hevc_planes(int filters) {
    pthread_once(&once, load);
    return !available ? NULL : filters ? &exact : &preview;
}
