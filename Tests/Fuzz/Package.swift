// swift-tools-version:6.0
// The fuzz target for libFuzzer, apart from the main package because it only links with
// -sanitize=fuzzer (libFuzzer's driver runs it). Built and run by scripts/fuzz; see
// docs/reliability.md. What it does with an input is the main package's PhotoGridFuzzing.
import PackageDescription

let package = Package(
    name: "photogrid-fuzz",
    dependencies: [.package(name: "photogrid", path: "../..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "Fuzz", dependencies: [
            "FuzzDriver", .product(name: "PhotoGridFuzzing", package: "photogrid"),
        ]),
    ]
)
