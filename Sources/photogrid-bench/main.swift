import Glibc
import PhotoGridCore

// photogrid-bench decode DIR [SIZE]     full libjpeg decodes against photogrid's shortcuts
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "decode" where arguments.count >= 2:
        try DecodeReport.run(folder: arguments[1], size: arguments.count > 2 ? Int(arguments[2]) ?? 400 : 400)
    default:
        print("usage: photogrid-bench decode DIR [SIZE]")
        exit(2)
    }
} catch {
    print("photogrid-bench: \(error)")
    exit(1)
}
