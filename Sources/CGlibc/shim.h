/* What glibc has that Swift's Glibc module leaves out, for the layer over libc in
   Sources/PhotoGridCore/System only: malloc.h (how much memory malloc keeps, and when it gives it
   back: mallopt, malloc_trim; Allocator.swift), and pipe2, which unistd.h declares only under
   _GNU_SOURCE, and Swift's Glibc module is built without it (FileDescriptor.swift). */
#include <malloc.h>

static inline int pg_pipe2(int fds[2], int flags) {
    extern int pipe2(int fds[2], int flags);
    return pipe2(fds, flags);
}

/* A flag set by one thread and read by another (CancelFlag.swift): C11 atomics, which the JPEG
   shim reads the same flag with. */
static inline void pg_flag_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }
static inline int pg_flag_get(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }

/* A count of writes under way, kept by TTY.writeAll and waited on by CrashGuard's handler. */
static inline void pg_count_add(int *count, int delta) { __atomic_add_fetch(count, delta, __ATOMIC_ACQ_REL); }
