/* libFuzzer's driver, called from each fuzz target's entry point. SwiftPM renames an
 * executable's main to <Module>_main and links main to it, so libFuzzer's own main cannot be
 * used; LLVMFuzzerRunDriver (libFuzzer 11 and later) does the same work. */
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
