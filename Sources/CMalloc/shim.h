/* glibc's malloc.h, for Sources/PhotoGridCore/System/Allocator.swift only: how much memory
   malloc keeps, and when it gives it back (mallopt, malloc_trim). Swift's Glibc module leaves
   this header out. */
#include <malloc.h>
