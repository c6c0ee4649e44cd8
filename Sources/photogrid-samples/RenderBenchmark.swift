import Glibc
import PhotoGridCore
import PhotoGridSamples

/// `photogrid-samples --bench`: how long each scene takes to paint and encode at full camera size,
/// printed as a table with the machine it ran on (the house rule: benchmarks are programs).
enum RenderBenchmark {
    package static func run(width: Int = 4000, height: Int = 3000) throws {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        print("Linux \(release) \(machine), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores; \(width)x\(height), quality 85, one thread")
        print("| scene | render ms | encode ms | bytes |")
        print("|---|---:|---:|---:|")
        let clock = ContinuousClock()
        for scene in Scene.allCases {
            var image = RGBImage(width: 0, height: 0)
            let render = clock.measure { image = Scene.render(scene, width: width, height: height, seed: 1) }
            var bytes: [UInt8] = []
            let encode = try clock.measure { bytes = try JPEG.encode(image, quality: 85) }
            print("| \(scene.rawValue) | \(milliseconds(render)) | \(milliseconds(encode)) | \(bytes.count) |")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
