import Foundation
import Testing
import PhotoGridFuzzing
import PhotoGridTestFixtures

/// Every input a fuzzer once crashed on (Tests/Fixtures/fuzz/<target>/) and every seed the
/// fuzzers start from (Tests/Fuzz/corpus/<target>/, the hostile JPEGs), through the code the fuzz
/// targets run: a crash here fails the run.
@Suite struct FuzzRegressionTests {
    static func inputs(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { folder + "/" + $0 }
    }

    /// The file extensions of each picture target's hostile files and sample pictures.
    static let extensions = ["png": ["png"], "webp": ["webp"], "gif": ["gif"], "heif": ["heic", "avif"], "avif": ["avif"]]

    @Test(arguments: ["jpeg", "metadata", "remote", "terminal", "keys", "png", "webp", "gif", "heif", "avif", "raw", "sidecar", "http"])
    func foundAndSeedInputsRunCleanly(target: String) throws {
        var files = Self.inputs(Paths.root + "/Tests/Fixtures/fuzz/" + target) + Self.inputs(Paths.root + "/Tests/Fuzz/corpus/" + target)
        if target == "jpeg" || target == "metadata" { files += Self.inputs(Paths.root + "/Tests/Fixtures/bad") }
        if target == "remote" { files += Self.inputs(Paths.root + "/Tests/Fixtures/listings") }
        if target == "raw" { files += Self.inputs(Paths.root + "/Tests/Fixtures/raw") }
        if target == "sidecar" { files += Self.inputs(Paths.root + "/Tests/Fixtures/sidecars") }
        if let extensions = Self.extensions[target] {
            let samples = (FileManager.default.enumerator(atPath: Paths.gallery)?.allObjects as? [String] ?? []).map { Paths.gallery + "/" + $0 }
            files += (Self.inputs(Paths.root + "/Tests/Fixtures/bad") + samples).filter { extensions.contains(($0 as NSString).pathExtension) }
        }
        let body = try #require(FuzzBodies.targets[target])
        for file in files {
            body(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        }
        #expect(files.count >= 3, "nothing to replay for \(target)")
    }
}
