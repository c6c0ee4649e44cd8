import Foundation
import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// libcurl, libcrypto and libssl are opened when first needed, not linked (docs/decisions.md,
/// "Libraries opened on first use"): a local folder is shown without them, and where one cannot
/// be loaded, the user is told which one a remote gallery or TLS needs.
struct LibrariesOnFirstUseTests {
    /// A folder whose libcurl.so.4, libssl.so.3 and libcrypto.so.3 are another library (the zlib
    /// photogrid links, found by ldd): dlopen takes them, and the functions photogrid looks up
    /// are not in them, as on a machine with a broken or foreign copy.
    func wrongLibraries() throws -> String {
        let folder = TestImages.scratchFolder("wrong-libraries")
        let linked = String(decoding: try Subprocess.run(["/usr/bin/ldd", Paths.binary]).output, as: UTF8.self)
        // "\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)"
        let zlib = try #require(linked.split(separator: "\n").first { $0.contains("libz.so") }
            .flatMap { $0.split(separator: " ").first { $0.hasPrefix("/") } }.map(String.init))
        // The file itself: ldd names a link, which copied would point nowhere from here.
        let file = URL(fileURLWithPath: zlib).resolvingSymlinksInPath().path
        for name in ["libcurl.so.4", "libssl.so.3", "libcrypto.so.3"] {
            try FileManager.default.copyItem(atPath: file, toPath: folder + "/" + name)
        }
        return folder
    }

    @Test func aLocalFolderIsShownWithoutThem() throws {
        let wrong = try wrongLibraries()
        defer { TestImages.remove(wrong) }
        let (status, output, said) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "80x24", "--no-disk-cache", Paths.gallery],
                                                         environment: ["LD_LIBRARY_PATH": wrong, "PATH": "/usr/bin:/bin"])
        #expect(status == 0, "\(said)")
        #expect(output.count > 1000)
    }

    @Test func aRemoteGallerySaysItNeedsLibcurl() throws {
        let wrong = try wrongLibraries()
        defer { TestImages.remove(wrong) }
        let (status, _, said) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "80x24", "--url", "http://127.0.0.1:9/"],
                                                    environment: ["LD_LIBRARY_PATH": wrong, "PATH": "/usr/bin:/bin"])
        #expect(status == 1)
        #expect(said.contains("remote galleries need libcurl (libcurl.so.4"), "\(said)")
    }

    @Test func servingWithACertificateSaysItNeedsLibssl() throws {
        let wrong = try wrongLibraries()
        defer { TestImages.remove(wrong) }
        // Any readable files: the library is looked for before they are read.
        let file = Paths.gallery + "/travel/beach-01.jpg"
        // Under a timeout: a server that started anyway would serve until stopped.
        let result = try Subprocess.run(["/usr/bin/timeout", "20", Paths.binary, "serve", Paths.gallery, "--port", "0",
                                         "--tls-cert", file, "--tls-key", file],
                                        environment: ["LD_LIBRARY_PATH": wrong, "PATH": "/usr/bin:/bin"])
        #expect(result.status != 0 && result.status != 124)
        #expect(result.errorText.contains("--tls-cert needs OpenSSL's libssl (libssl.so.3"), "\(result.errorText)")
    }
}
