import FuzzDriver
import Glibc
import PhotoGridFuzzing

/// One libFuzzer binary for every target: FUZZ_TARGET (jpeg, metadata, remote, terminal) says
/// which of `FuzzBodies` runs on each input. scripts/fuzz sets it.
nonisolated(unsafe) var body: ([UInt8]) -> Void = { _ in }

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    body(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// SwiftPM links main to <Module>_main: pick the target, then hand over to libFuzzer's driver.
@_cdecl("Fuzz_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let chosen = FuzzBodies.targets[name] else {
        // write(2) rather than fputs(stderr): Swift 6 rejects libc's `stderr` global.
        let message = "Fuzz: set FUZZ_TARGET to one of \(FuzzBodies.targets.keys.sorted().joined(separator: ", "))\n"
        _ = message.utf8CString.withUnsafeBytes { write(2, $0.baseAddress, $0.count - 1) }
        return 2
    }
    body = chosen
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOne)
}
