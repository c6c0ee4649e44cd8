/* The file-descriptor data source the shim's decodes read files through (jpeg_fd_source.h). */
#include "jpeg_fd_source.h"

#include <errno.h>
#include <unistd.h>
#include <jerror.h>

/* A libjpeg data source reading a file descriptor with pread, like jpeg_mem_src at the end of the
   data: a warning, then a fake EOI, so that a truncated file is reported (or drawn, if allowed). */
typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    off_t offset;
    JOCTET buffer[65536];
} pg_fd_source;

static void pg_fd_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void pg_fd_term(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean pg_fd_fill(j_decompress_ptr cinfo) {
    pg_fd_source *src = (pg_fd_source *)cinfo->src;
    ssize_t n;
    do { n = pread(src->fd, src->buffer, sizeof(src->buffer), src->offset); } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->buffer[0] = (JOCTET)0xFF;
        src->buffer[1] = (JOCTET)JPEG_EOI;
        n = 2;
    } else {
        src->offset += n;
    }
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = (size_t)n;
    return TRUE;
}

static void pg_fd_skip(j_decompress_ptr cinfo, long count) {
    pg_fd_source *src = (pg_fd_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= src->pub.bytes_in_buffer) {
        src->pub.next_input_byte += count;
        src->pub.bytes_in_buffer -= (size_t)count;
    } else {
        src->offset += (off_t)((size_t)count - src->pub.bytes_in_buffer);
        src->pub.bytes_in_buffer = 0;
    }
}

void pg_fd_src(j_decompress_ptr cinfo, int fd) {
    pg_fd_source *src = (pg_fd_source *)(*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof(pg_fd_source));
    src->fd = fd;
    src->offset = 0;
    src->pub.init_source = pg_fd_init;
    src->pub.fill_input_buffer = pg_fd_fill;
    src->pub.skip_input_data = pg_fd_skip;
    src->pub.resync_to_restart = jpeg_resync_to_restart;
    src->pub.term_source = pg_fd_term;
    src->pub.bytes_in_buffer = 0;
    src->pub.next_input_byte = NULL;
    cinfo->src = &src->pub;
}
