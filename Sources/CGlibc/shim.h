/* What glibc has that Swift's Glibc module leaves out, for the layer over libc in
   Sources/PhotoGridCore/System only: malloc.h (how much memory malloc keeps, and when it gives it
   back: mallopt, malloc_trim; Allocator.swift), and pipe2, which unistd.h declares only under
   _GNU_SOURCE, and Swift's Glibc module is built without it (FileDescriptor.swift). */
#include <malloc.h>

static inline int pg_pipe2(int fds[2], int flags) {
    extern int pipe2(int fds[2], int flags);
    return pipe2(fds, flags);
}
