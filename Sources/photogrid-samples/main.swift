import Glibc
import PhotoGridSamples

// photogrid-samples DIR          writes the sample gallery into DIR (see SampleGallery)
// photogrid-samples --check DIR  reads it back with photogrid's own readers and reports differences
// photogrid-samples --bench      times painting and encoding each scene at 12 MP
let arguments = CommandLine.arguments
let usage = """
    usage: photogrid-samples DIR
           photogrid-samples --check DIR
           photogrid-samples --bench
    writes the \(SampleGallery.entries.count) sample photos into DIR, or checks them against the plan
    """

func fail(_ text: String, status: Int32) -> Never {
    let message = Array((text + "\n").utf8)
    _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

switch arguments.dropFirst().count {
case 1 where arguments[1] == "-h" || arguments[1] == "--help":
    print(usage)
case 1 where !arguments[1].hasPrefix("-"):
    var count = 0
    var total = 0
    do {
        try SampleGallery.write(to: arguments[1]) { entry, bytes in
            count += 1
            total += bytes
            print("\(entry.path)  \(entry.width)x\(entry.height)  \(bytes / 1024) KiB")
        }
        try SampleGallery.writeFormats(to: arguments[1]) { path, bytes in
            count += 1
            total += bytes
            print("\(path)  \(bytes / 1024) KiB")
        }
    } catch {
        fail("photogrid-samples: \(error)", status: 1)
    }
    let megabytes = (Double(total) / 100_000).rounded() / 10
    print("\(count) photos, \(total) bytes (\(megabytes) MB) in \(arguments[1])")
case 1 where arguments[1] == "--bench":
    do { try RenderBenchmark.run() } catch { fail("photogrid-samples: \(error)", status: 1) }
case 2 where arguments[1] == "--check":
    let problems = SampleGallery.check(folder: arguments[2])
    for problem in problems { print(problem) }
    if !problems.isEmpty { fail("photogrid-samples: \(problems.count) problems", status: 1) }
    print("\(SampleGallery.entries.count) photos match the plan")
default:
    fail(usage, status: 2)
}
