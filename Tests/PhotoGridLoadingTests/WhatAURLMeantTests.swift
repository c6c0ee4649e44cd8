import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
@testable import PhotoGridServe
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A URL that is not quite a gallery's (issue 36): a photo's opens its folder on that photo, a
/// folder's without its `/` is the folder, and an export folder is its manifest, whether its
/// server lists folders or not.
@Suite(.startsPrograms, .serialized) struct WhatAURLMeantTests {
    static func makeTree() throws -> String {
        let root = RemotePaths.scratch("meant")
        try FileManager.default.createDirectory(atPath: root + "/travel", withIntermediateDirectories: true)
        for name in ["beach-01.jpg", "beach-02.jpg", "sunset-04.jpg"] {
            try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/travel/" + name, toPath: root + "/travel/" + name)
        }
        _ = try GalleryExport(GalleryExport.Configuration(folder: root + "/travel", output: root + "/export")).run()
        _ = try Subprocess.run(["chmod", "-R", "a+rX", root])
        return root
    }

    func first(_ url: String) throws -> RemoteGalleryLoader.First {
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        return try RemoteGalleryLoader(fetcher: http).first(try #require(RemoteURL(url)))
    }

    func ids(_ first: RemoteGalleryLoader.First) throws -> [String] {
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        return try RemoteGalleryLoader(fetcher: http).load(first).photos.map(\.id)
    }

    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"), arguments: ["on", nil] as [String?])
    func aURLIsReadForWhatItMeant(autoindex: String?) throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Nginx.serving(root, autoindex: autoindex) { (port: Int) throws -> Void in
            let base = "http://127.0.0.1:\(port)"
            // An export folder: its manifest's photos, not its renditions and originals.
            #expect(try ids(try first(base + "/export/")) == ["beach-01.jpg", "beach-02.jpg", "sunset-04.jpg"])
            guard autoindex != nil else { return }
            // A photo: its folder, on it.
            guard case .focused(let folder, let photo) = try first(base + "/travel/beach-02.jpg") else {
                Issue.record("a photo's URL did not open its folder")
                return
            }
            #expect(photo == "beach-02.jpg")
            #expect(try ids(folder) == ["beach-01.jpg", "beach-02.jpg", "sunset-04.jpg"])
            // A folder without its "/" (nginx redirects; the retry is for servers that do not).
            #expect(try ids(try first(base + "/travel")) == ["beach-01.jpg", "beach-02.jpg", "sunset-04.jpg"])
        }
    }

    /// rclone's http server answers a folder without its "/" with 404.
    @Test(.enabled(if: WebDAVTests.rclone != nil, "rclone is not installed (scripts/setup --test installs it)"))
    func aFolderWithoutItsSlashIsTriedWithOne() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let port = Subprocess.freePort()
        let server = try Subprocess.start([WebDAVTests.rclone!, "serve", "http", root, "--addr", "127.0.0.1:\(port)", "--config", "/dev/null"])
        defer { Subprocess.stop(server) }
        #expect(Subprocess.waitForPort(port))
        #expect(try ids(try first("http://127.0.0.1:\(port)/travel")) == ["beach-01.jpg", "beach-02.jpg", "sunset-04.jpg"])
    }
}
