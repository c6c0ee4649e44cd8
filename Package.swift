// swift-tools-version:6.0
import PackageDescription

// A generic type's metadata made by its accessor, not found by demangling its name: a name's
// requirements (`Set<RemoteURL>` needs `RemoteURL: Hashable`) are looked up in the binary's
// table of 6,423 conformances, about 0.1 ms for each type a process meets first; 5-7% of a warm
// `--print`'s instructions (docs/decisions.md).
let metadataByAccessor: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

let package = Package(
    name: "photogrid",
    products: [
        .executable(name: "photogrid", targets: ["photogrid"]),
        // For the fuzz targets in Tests/Fuzz, a package of their own built with libFuzzer.
        .library(name: "PhotoGridFuzzing", targets: ["PhotoGridFuzzing"]),
    ],
    // No packages: the command line is parsed by photogrid's own code (docs/decisions.md, "The
    // command line without swift-argument-parser").
    dependencies: [],
    targets: [
        // C libraries, each reached from exactly one Swift file (see docs/architecture.md).
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // TurboJPEG's lossless transform, for `[` and `]` (JPEGRotation).
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSixel", pkgConfig: "libsixel", providers: [.apt(["libsixel-dev"])]),
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // libheif is loaded on first use rather than linked: its codecs cost every start 5 ms (see
        // Sources/CHeif/include/heif_loader.h). Its header comes from libheif-dev.
        .target(name: "CHeif"),
        // libavif decodes AVIF's pictures, loaded on first use too (Sources/CAvif/include/avif_loader.h).
        .target(name: "CAvif"),
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        // LibRaw: raw files' previews and development, loaded on first use (Sources/CRaw/include/raw_loader.h).
        .target(name: "CRaw"),
        // libtiff (TIFF scans and exports) and libjxl (JPEG XL), loaded on first use too
        // (Sources/CTiff/include/tiff_loader.h). Their headers come from libtiff-dev and libjxl-dev.
        .target(name: "CTiff"),
        .target(name: "CJxl"),
        // Little CMS: embedded colour profiles converted to sRGB.
        .systemLibrary(name: "CLcms", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // zlib: PNG's image data inflated, and its checksums (kitty's PNG pictures are deflated
        // by photogrid's HuffmanDeflate: docs/decisions.md, "kitty's PNG deflated by photogrid").
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // What glibc has that Swift's Glibc module leaves out: malloc.h (how much memory malloc keeps) and pipe2.
        .systemLibrary(name: "CGlibc"),
        // SQLite: the catalog (PhotoGridCatalog/Catalog/SQLite.swift is the one file calling it).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl: remote galleries over HTTP/1.1, HTTP/2, TLS and SFTP (through libssh2), with
        // netrc; loaded on first use, its 26 libraries cost every start 6 ms
        // (Sources/CCurl/include/curl_loader.h). Its header comes from libcurl4-openssl-dev.
        .target(name: "CCurl"),
        // libcrypto (OpenSSL, which libcurl links already): buckets' request signatures and ETags;
        // loaded on first use, as is libssl below: linked, the two cost every start 2 ms
        // (Sources/CCrypto/include/crypto_loader.h). Their headers come from libssl-dev.
        .target(name: "CCrypto"),
        // libssl (OpenSSL's, as above): `photogrid serve --tls-cert` (PhotoGridServe/Server/TLSSession.swift).
        .target(name: "CSSL"),
        // libjpeg needs setjmp/longjmp for its errors, which Swift cannot do: a thin C layer does.
        .target(name: "CJPEGShim", dependencies: ["CLibJPEG"]),
        // The resampler's inner loop, compiled for AVX2, SSE4.1 and the baseline and chosen at
        // start, which Swift cannot do (Sources/CResampling/include/resampling.h). Optimised in
        // debug builds too, as PhotoGridDecoding is.
        .target(name: "CResampling", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        // The stages of a photo's journey, each a target that sees only the ones below it
        // (docs/architecture.md draws the graph): the layer over libc; the shared vocabulary;
        // decoding (bytes to pictures); loading (where bytes come from); the gallery (folders,
        // order, sidecars); the canvases (a terminal protocol each); the pipeline and its caches;
        // the terminal (ncurses, the probe); the app.
        .target(name: "PhotoGridSystem", dependencies: ["CGlibc"], swiftSettings: metadataByAccessor),
        .target(name: "PhotoGridModel", dependencies: ["PhotoGridSystem"], swiftSettings: metadataByAccessor),
        // Records kept on disk between runs (thumbnails, tiles, HTTP responses): keys, files, trimming.
        .target(name: "PhotoGridDiskCache", dependencies: ["PhotoGridSystem", "PhotoGridModel"], swiftSettings: metadataByAccessor),
        // What photos say about themselves (EXIF, XMP, IPTC) and their sidecars, read and edited:
        // no pixels, no C library.
        .target(name: "PhotoGridMetadata", dependencies: ["PhotoGridSystem", "PhotoGridModel"], swiftSettings: metadataByAccessor),
        // What photogrid knows of every photo between runs, in SQLite: dates, sizes, cameras,
        // exposure, ratings, labels, keywords; and the filter that asks it (PhotoQuery).
        .target(name: "PhotoGridCatalog", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding",
                                                         "PhotoGridGallery", "CSQLite"],
                swiftSettings: metadataByAccessor),
        .target(name: "PhotoGridDecoding", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "CJPEGShim", "CSPNG", "CWebP", "CHeif",
                                                          "CAvif", "CGif", "CZlib", "CTiff", "CJxl", "CRaw", "CLcms", "CResampling"],
                // Optimised in debug builds too: the tests decode and resample thousands of
                // pictures, and unoptimised pixel loops made a debug --print of 18 photos in sixel
                // 1.67 s against 0.83 s (docs/decisions.md, "Fitted tiles from their shape...").
                swiftSettings: metadataByAccessor + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "PhotoGridGallery", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding", "CTurboJPEG"],
                swiftSettings: metadataByAccessor),
        // Where a photo's bytes come from: a file, or a remote gallery over HTTP, WebDAV or SFTP
        // (libcurl), with the gallery's listing or manifest read and crawled.
        .target(name: "PhotoGridLoading", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding", "PhotoGridDiskCache",
                                                         "PhotoGridGallery", "GalleryFormats", "CCurl", "CCrypto"],
                swiftSettings: metadataByAccessor),
        // Optimised in debug builds too: the sixel encoder, ditherer and deflate ran unoptimised in
        // the tests and the debug photogrid they start, and with -O the test processes took 272/253 s
        // against 313/328 s (docs/decisions.md, "The test run's CPU").
        .target(name: "PhotoGridCanvas", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding", "CSixel"],
                swiftSettings: metadataByAccessor + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "PhotoGridPipeline", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding", "PhotoGridDiskCache",
                                                          "PhotoGridLoading", "PhotoGridGallery", "PhotoGridCanvas"], swiftSettings: metadataByAccessor),
        .target(name: "PhotoGridTerminal", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridCanvas", "CNcursesw"],
                swiftSettings: metadataByAccessor),
        .target(name: "PhotoGridCore", dependencies: ["PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding", "PhotoGridDiskCache",
                                                      "PhotoGridLoading", "PhotoGridGallery", "PhotoGridCanvas", "PhotoGridPipeline",
                                                      "PhotoGridTerminal", "GalleryFormats", "PhotoGridCatalog"],
                swiftSettings: metadataByAccessor),
        // What remote galleries are made of, without networking and without the core: manifests
        // (read and written), web directory listings, URLs and percent-encoding. Optimised in
        // debug builds too: a test reading 500,000 PROPFIND entries took 27 s unoptimised, 15 s so.
        .target(name: "GalleryFormats", dependencies: ["PhotoGridModel"], swiftSettings: metadataByAccessor + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // `photogrid serve` and `photogrid export`: a folder as a gallery for --url, beside the
        // browser rather than on top of it: neither the app nor ncurses is built into it. POSIX
        // sockets on threads and the system's libssl, no framework (docs/decisions.md).
        .target(name: "PhotoGridServe", dependencies: [
            "PhotoGridSystem", "PhotoGridModel", "PhotoGridMetadata", "PhotoGridDecoding", "PhotoGridDiskCache", "PhotoGridGallery", "PhotoGridLoading",
            "GalleryFormats", "CSSL",
        ], swiftSettings: metadataByAccessor),
        .executableTarget(name: "photogrid", dependencies: [
            "PhotoGridCore",
            "PhotoGridServe",
        ], swiftSettings: metadataByAccessor, linkerSettings: [
            // The Swift runtime and libraries linked in: a start takes 5 ms instead of 8.5 (no
            // symbol lookups across eleven shared libraries). Release only: debug builds serve
            // the tests and the sanitizers, which link their own runtimes.
            .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
        ]),

        // Procedural scenes and EXIF writing: makes sample-gallery/ and the test fixtures.
        .target(name: "PhotoGridSamples", dependencies: ["PhotoGridCore", "CSPNG", "CWebP", "CGif", "CHeif"]),
        // What the tests, the benchmark and the soak drive photogrid with: processes, tmux, a pty
        // that answers like a terminal, and a model screen to play its output on.
        .target(name: "PhotoGridTestSupport", dependencies: ["PhotoGridCore", "PhotoGridCanvas", "PhotoGridSamples"]),
        .executableTarget(name: "photogrid-samples", dependencies: ["PhotoGridSamples"]),
        // What each fuzz target does with an input: shared by Tests/Fuzz and the replay of the
        // inputs fuzzers found (docs/reliability.md).
        .target(name: "PhotoGridFuzzing", dependencies: ["PhotoGridCore", "GalleryFormats", "PhotoGridServe"]),
        // Benchmarks are a program that prints figures (docs/benchmarks.md), not timed tests.
        .executableTarget(name: "photogrid-bench", dependencies: ["PhotoGridCore", "PhotoGridSamples", "PhotoGridTestSupport", "GalleryFormats"]),

        // What only the tests share: fixtures (images, metadata, galleries), the servers a test
        // starts (nginx, Apache, sshd, photogrid serve), a real kitty, and `.startsPrograms`,
        // the trait that keeps those tests out of the fast run (docs/testing.md).
        .target(name: "PhotoGridTestFixtures", dependencies: ["PhotoGridCore", "PhotoGridServe", "PhotoGridSamples", "PhotoGridTestSupport", "GalleryFormats"]),

        // A test target per stage, named for it.
        .testTarget(name: "PhotoGridSystemTests", dependencies: ["PhotoGridSystem", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridModelTests", dependencies: ["PhotoGridModel", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridMetadataTests", dependencies: ["PhotoGridMetadata", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridCatalogTests", dependencies: ["PhotoGridCatalog", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridDecodingTests", dependencies: ["PhotoGridDecoding", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridGalleryTests", dependencies: ["PhotoGridGallery", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridDiskCacheTests", dependencies: ["PhotoGridDiskCache", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridLoadingTests", dependencies: ["PhotoGridLoading", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridCanvasTests", dependencies: ["PhotoGridCanvas", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridPipelineTests", dependencies: ["PhotoGridPipeline", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridTerminalTests", dependencies: ["PhotoGridTerminal", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridCoreTests", dependencies: ["PhotoGridCore", "PhotoGridFuzzing", "PhotoGridTestFixtures"]),
        .testTarget(name: "PhotoGridServeTests", dependencies: ["PhotoGridServe", "PhotoGridTestFixtures"]),
        .testTarget(name: "GalleryFormatsTests", dependencies: ["GalleryFormats"]),
    ]
)
