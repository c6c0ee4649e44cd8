/* libheif, for Sources/PhotoGridCore/Decoding/HEIF.swift only. It returns error structs (no
   longjmp) and decodes HEIC through libde265 and AVIF through dav1d or libaom, as Debian builds it.

   It is loaded with dlopen the first time a HEIF or AVIF file is read, not linked: libheif up to
   1.16 registers its codecs in a static constructor (libde265's tables, x265, libaom), which cost
   every start of photogrid 5 ms (measured: an empty C program linked with -lheif starts in 5.5 ms
   against 0.8 ms). A machine without libheif still runs photogrid; HEIF tiles then say why. */
#ifndef PHOTOGRID_HEIF_LOADER_H
#define PHOTOGRID_HEIF_LOADER_H
#include <libheif/heif.h>

/* Every libheif function HEIF.swift calls. A field per function, typed from libheif's own
   declaration, so a changed signature fails to compile rather than to run. */
#define PG_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_read_from_memory_without_copy) \
    X(heif_context_set_maximum_image_size_limit) X(heif_context_get_primary_image_handle) \
    X(heif_image_handle_release) X(heif_image_handle_get_width) X(heif_image_handle_get_height) \
    X(heif_image_handle_has_alpha_channel) X(heif_image_handle_is_premultiplied_alpha) \
    X(heif_image_handle_get_luma_bits_per_pixel) X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_number_of_thumbnails) X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_thumbnail) X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_number_of_metadata_blocks) X(heif_image_handle_get_metadata_type) \
    X(heif_image_handle_get_metadata_content_type) X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_color_profile_type) X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free) X(heif_decode_image) \
    X(heif_image_release) X(heif_image_get_width) X(heif_image_get_height) X(heif_image_get_colorspace) \
    X(heif_image_get_chroma_format) X(heif_image_get_bits_per_pixel_range) X(heif_image_get_plane_readonly) \
    X(heif_image_get_nclx_color_profile) X(heif_nclx_color_profile_alloc) X(heif_nclx_color_profile_free) \
    X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_context_get_encoder_for_format) X(heif_encoder_set_lossy_quality) X(heif_encoder_release) \
    X(heif_encoding_options_alloc) X(heif_encoding_options_free) X(heif_image_create) X(heif_image_add_plane) \
    X(heif_image_get_plane) X(heif_image_set_nclx_color_profile) X(heif_context_encode_image) \
    X(heif_context_encode_thumbnail) X(heif_context_add_exif_metadata) X(heif_context_write_to_file) \
    X(heif_register_decoder) X(heif_get_version_number)

#define PG_HEIF_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_heif {
    PG_HEIF_FUNCTIONS(PG_HEIF_FIELD)
};
#undef PG_HEIF_FIELD

/* libheif's functions, loaded once (thread-safe); NULL when libheif.so.1 cannot be loaded or
   lacks one of them. */
const struct pg_heif * _Nullable pg_heif_load(void);

/* A decoder for HEVC that hands out libde265's YCbCr planes labelled as planar RGB 4:4:4 (R is
   Y, G Cb, B Cr), which libheif 1.15 leaves unconverted; without in-loop filters when `filters`
   is 0. hevc_planes.c says why. Registered on one context with heif_register_decoder; NULL when
   libheif or libde265 cannot be loaded, or when libheif is 1.16 or later, whose
   heif_register_decoder registers for every context. */
struct heif_decoder_plugin;
const struct heif_decoder_plugin * _Nullable pg_heif_hevc_planes(int filters);

#endif
