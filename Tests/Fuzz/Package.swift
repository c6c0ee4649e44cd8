// swift-tools-version:6.0
// Fuzz targets for libFuzzer, apart from the main package because they only link with
// -sanitize=fuzzer (libFuzzer brings main). Built and run by scripts/fuzz; see docs/reliability.md.
import PackageDescription

let bodies: Target.Dependency = .product(name: "PhotoGridFuzzing", package: "photogrid")
let driver: Target.Dependency = "FuzzDriver"

let package = Package(
    name: "photogrid-fuzz",
    dependencies: [.package(name: "photogrid", path: "../..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzJPEG", dependencies: [bodies, driver]),
        .executableTarget(name: "FuzzMetadata", dependencies: [bodies, driver]),
        .executableTarget(name: "FuzzRemote", dependencies: [bodies, driver]),
        .executableTarget(name: "FuzzTerminal", dependencies: [bodies, driver]),
    ]
)
