import Glibc

/// How photogrid asks glibc's malloc to give memory back.
public enum Allocator {
    /// Blocks of 256 KB or more (tier images, encoded tiles, decode buffers) are mapped on their
    /// own and unmapped when freed. glibc otherwise raises this threshold to the size of the
    /// largest block freed so far (up to 32 MB), after which image buffers come from its heaps
    /// and, freed, stay in them: measured on a 3-column sixel grid of 10 photos with a 64 MB
    /// budget, 127 MB above the process's start stayed resident at rest, 33 MB with the fixed
    /// threshold (docs/decisions.md).
    public static func returnLargeBlocks() {
        // malloc.h is not part of Swift's Glibc module: mallopt is looked up by name, and
        // M_MMAP_THRESHOLD is its value in malloc.h, -3.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-3, 256 * 1024)
    }
}
