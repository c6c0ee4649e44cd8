import Glibc
import Testing
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// What a photogrid killed mid-write leaves (`AtomicFile`'s hidden temporaries) is told from
/// what is being written now and from anything else that merely looks alike.
struct LeftoverTests {
    /// A process number no process has: past the kernel's largest.
    static let deadProcess: Int32 = {
        let most = FileDescriptor.kernelFile("/proc/sys/kernel/pid_max").flatMap { Int32($0.trimmingWhitespace) } ?? 4_194_304
        return most + 1
    }()

    @Test func onlyAGoneProcesssTemporariesAreLeftovers() {
        let dead = Self.deadProcess, alive = getpid()
        #expect(AtomicFile.isLeftover(Array(".a.jpg.xmp.photogrid-\(dead)-0".utf8)))
        #expect(AtomicFile.isLeftover(Array(".IMG_1.NEF.photogrid-\(dead)-copy".utf8)))
        #expect(AtomicFile.isLeftover(Array(".a.jpg.trashinfo.photogrid-\(dead)-0".utf8)))
        // One this process is writing now.
        #expect(!AtomicFile.isLeftover(Array(".a.jpg.xmp.photogrid-\(alive)-0".utf8)))
        // Names that only look alike: not hidden, no number, another ending, a photo's own name.
        for name in ["a.jpg.xmp.photogrid-\(dead)-0", ".a.photogrid-x-0", ".a.photogrid-\(dead)-", ".a.photogrid-\(dead)-tmp",
                     ".photogrid-notes.txt", "photogrid-1.jpg", ".a.jpg"] {
            #expect(!AtomicFile.isLeftover(Array(name.utf8)), "\(name)")
        }
    }

    @Test func aLeftoverIsRemovedAndNothingElse() throws {
        let folder = TestImages.scratchFolder("leftovers")
        defer { TestImages.remove(folder) }
        let leftover = folder + "/.a.jpg.xmp.photogrid-\(Self.deadProcess)-0", live = folder + "/.a.jpg.xmp.photogrid-\(getpid())-0"
        TestImages.write([1], to: leftover)
        TestImages.write([2], to: live)
        #expect(AtomicFile.removeLeftover(RawPath(leftover)))
        #expect(access(leftover, F_OK) != 0)
        #expect(!AtomicFile.removeLeftover(RawPath(live)))
        #expect(access(live, F_OK) == 0)
        // A folder of that name is not a file to remove.
        mkdir(folder + "/.b.photogrid-\(Self.deadProcess)-0", 0o755)
        #expect(!AtomicFile.removeLeftover(RawPath(folder + "/.b.photogrid-\(Self.deadProcess)-0")))
    }
}
