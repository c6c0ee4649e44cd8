import FuzzDriver
import PhotoGridFuzzing

// libFuzzer calls this for every input; what it does is FuzzBodies.metadata, which the test suite
// also replays on the inputs that once crashed it.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzBodies.metadata(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// SwiftPM links main to <Module>_main: hand over to libFuzzer's driver.
@_cdecl("FuzzMetadata_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOne)
}
