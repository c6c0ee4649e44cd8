import CGlibc
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
        setLimits(keep: false)
        kept.withLock { $0 = false }
    }

    /// The policy for a session whose memory budget is `budget` bytes. From `keepAtBudget` up,
    /// large blocks come from malloc's heaps and, freed, stay there for the next decode: a block
    /// mapped on its own costs a page fault and the kernel's zeroing for every 4 KB of it, each
    /// time, a sixth of a cold first screen's CPU. They go back once the pipeline has had nothing
    /// to do for a second (`returnFreePagesWhenKept`), and when a decode starts or ends with the
    /// process near its budget (`decodesUse`). Below that budget blocks are mapped on their own.
    package static func fit(budget: Int) {
        let keep = budget >= keepAtBudget
        guard kept.withLock({ old in defer { old = keep }; return old != keep }) else { return }
        setLimits(keep: keep)
        if !keep { returnFreePages() }
    }

    /// Decodes using this much make the free pages go back first, when large blocks are not kept.
    package static let largeDecodes = 16 << 20

    /// The smallest budget at which large blocks are kept for reuse (`fit(budget:)`).
    package static let keepAtBudget = 256 << 20

    /// How far under its budget the process must stay resident for free pages to be kept: the
    /// bound is the budget plus 100 MB at the peak (issue 18), and one decode can take 90 MB.
    package static let keptMargin = 128 << 20

    /// Whether large blocks are kept in malloc's heaps now.
    package static var keepsLargeBlocks: Bool { kept.withLock { $0 } }

    /// Called whenever what decodes use changes (`MemoryGate`), `bytes` in all: the free pages
    /// in malloc's heaps go back to the system when that is `largeDecodes` or more, unless they
    /// are kept; kept ones go back when the process is resident over its `budget` less
    /// `keptMargin` (the cache lets go of images between decodes, and their blocks stay).
    package static func decodesUse(_ bytes: Int, budget: Int) {
        if keepsLargeBlocks {
            if let resident = residentBytes(), resident >= budget - keptMargin { returnFreePages() }
        } else if bytes >= largeDecodes {
            returnFreePages()
        }
    }

    /// Gives back the free pages kept for reuse, when they are kept: the pipeline is idle.
    package static func returnFreePagesWhenKept() {
        if keepsLargeBlocks { returnFreePages() }
    }

    /// Gives back to the system the free pages inside malloc's heaps (`malloc_trim(0)`): what the
    /// cache just let go of in small blocks (half-block tiles are many lines of a few KB) stays
    /// resident otherwise, and a large decode then comes on top of it. Holding keys down in
    /// half-blocks with a 64 MB budget, the peak was 186-190 MB with 116 MB live at most
    /// (heaptrack), 163 MB of it anonymous.
    package static func returnFreePages() {
        _ = malloc_trim(0)
    }

    /// The process's resident memory (`/proc/self/statm`: "size resident shared ...", in
    /// pages), nil where it cannot be read.
    static func residentBytes() -> Int? {
        guard let fields = FileDescriptor.kernelFile("/proc/self/statm")?.split(separator: " "), fields.count > 1,
              let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    private static func setLimits(keep: Bool) {
        _ = mallopt(M_MMAP_THRESHOLD, keep ? 128 << 20 : 256 * 1024)
        _ = mallopt(M_TRIM_THRESHOLD, keep ? 1 << 30 : 128 * 1024)
    }

    private static let kept = Locked(false)
}
