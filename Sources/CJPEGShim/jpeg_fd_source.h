/* Internal to the shim: a libjpeg data source that reads a file descriptor with pread, so that
 * a photo is decoded from its file without being read into memory first. */
#ifndef PG_JPEG_FD_SOURCE_H
#define PG_JPEG_FD_SOURCE_H

#include <stdio.h>
#include <jpeglib.h>

/* Makes `fd` the source of `cinfo`, from its first byte; allocated in libjpeg's permanent pool. */
void pg_fd_src(j_decompress_ptr cinfo, int fd);

#endif
