import Glibc

/// How photogrid asks glibc's malloc to give memory back.
package enum Allocator {
    /// free(3), for what a C library malloc'd and hands over (libsixel's indexed pixels and palette).
    package static func free(_ pointer: UnsafeMutableRawPointer?) { Glibc.free(pointer) }

    /// Blocks of 256 KB or more (tier images, encoded tiles, decode buffers) are mapped on their
    /// own and unmapped when freed. glibc otherwise raises this threshold to the size of the
    /// largest block freed so far (up to 32 MB), after which image buffers come from its heaps
    /// and, freed, stay in them: measured on a 3-column sixel grid of 10 photos with a 64 MB
    /// budget, 127 MB above the process's start stayed resident at rest, 33 MB with the fixed
    /// threshold (docs/decisions.md).
    package static func returnLargeBlocks() {
        // malloc.h is not part of Swift's Glibc module: mallopt is looked up by name, and
        // M_MMAP_THRESHOLD is its value in malloc.h, -3.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-3, 256 * 1024)
    }

    /// Gives back to the system the free pages inside malloc's heaps (`malloc_trim(0)`): what the
    /// cache just let go of in small blocks (half-block tiles are many lines of a few KB) stays
    /// resident otherwise, and a large decode then comes on top of it. Called when one starts:
    /// holding keys down in half-blocks with a 64 MB budget, the peak was 186-190 MB with 116 MB
    /// live at most (heaptrack), 163 MB of it anonymous.
    package static func returnFreePages() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = trim else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }

    nonisolated(unsafe) private static let trim = dlsym(nil, "malloc_trim")
}
