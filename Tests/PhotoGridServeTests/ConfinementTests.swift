import Foundation
import Testing
import PhotoGridTestFixtures

/// Nothing outside the served folder, however the request is spelled. Sent over a raw socket,
/// so that `..`, `%2e` and friends reach the server exactly as written.
@Suite(.startsPrograms) struct ConfinementTests {
    @Test func traversalAttemptsAllGet404() async throws {
        try await ServedGallery.with { served in
            let fixture = served.fixture
            let targets = [
                "/originals/../outside/secret.txt",
                "/originals/../../../../etc/passwd",
                "/../../etc/passwd",
                "/originals/%2e%2e/outside/secret.txt",
                "/originals/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
                "/originals/..%2f..%2fetc/passwd",
                "/originals/%252e%252e/outside/secret.txt",
                "/originals//etc/passwd",
                "/originals/%2Fetc%2Fpasswd",
                "/originals" + fixture.outside + "/secret.txt",
                "/originals/" + ServedGallery.encoded(fixture.outside + "/secret.txt"),
                "/originals/travel/../../outside/secret.txt",
                "/originals/./hills-03.jpg",
                "/originals/hills-03.jpg%00",
                "/originals/hills-03.jpg%00.txt",
                "/originals/%00",
                "/originals/notes.txt",
                "/originals/.hidden.jpg",
                "/originals/travel",
                "/originals/",
                "/originals",
                "/renditions/../../etc/passwd/256.jpg",
                "/renditions/%2e%2e/outside/secret.txt/256.jpg",
                "http://localhost/etc/passwd",
                "/originals/%zz",
                "/originals/hills-03.jpg%",
            ]
            for target in targets {
                let reply = try RawHTTP.get(port: served.port, target)
                #expect(reply.status == 404, "\(target)")
                #expect(!String(decoding: reply.body, as: UTF8.self).contains("secret"), "\(target)")
                #expect(reply.body.count < 100, "\(target)")
            }
        }
    }

    @Test func linksLeadingOutOfTheFolderAreNotServed() async throws {
        try await ServedGallery.with { served in
            #expect(served.server.excludedCount == GalleryFixture.linkedOut)
            for id in ["outside.jpg", "linked-out/away.jpg", "secret.jpg"] {
                #expect(try RawHTTP.get(port: served.port, "/originals/" + id).status == 404, "\(id)")
                #expect(try RawHTTP.get(port: served.port, "/renditions/\(id)/256.jpg").status == 404, "\(id)")
            }
            let manifest = String(decoding: try RawHTTP.get(port: served.port, "/").body, as: UTF8.self)
            #expect(!manifest.contains("outside.jpg"))
            #expect(!manifest.contains("away.jpg"))
            #expect(!manifest.contains("secret"))
        }
    }

    @Test func aPhotoSwappedForALinkAfterStartUpIsNotFollowed() async throws {
        try await ServedGallery.with { served in
            let path = served.fixture.path(GalleryFixture.night)
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: served.fixture.outside + "/deep/away.jpg")
            let target = "/originals/" + GalleryFixture.night
            #expect(try RawHTTP.get(port: served.port, target).status == 404)
            #expect(try RawHTTP.get(port: served.port, "/renditions/\(GalleryFixture.night)/256.jpg").status == 404)
            // A link that stays inside the folder is fine.
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "../" + GalleryFixture.rotated)
            let inside = try RawHTTP.get(port: served.port, target)
            #expect(inside.status == 200)
            #expect(inside.body == (try served.fixture.bytes(GalleryFixture.rotated)))
        }
    }

    @Test func unknownRoutesGet404AndOtherMethods405() async throws {
        try await ServedGallery.with { served in
            for target in ["/favicon.ico", "/index.html", "/manifest.json/", "/renditions/", "/renditions/hills-03.jpg",
                           "/renditions/hills-03.jpg/256.png", "/renditions/hills-03.jpg/+256.jpg", "/renditions/hills-03.jpg/256"] {
                let reply = try RawHTTP.get(port: served.port, target)
                #expect(reply.status == 404, "\(target)")
                #expect(reply.headers["content-type"]?.hasPrefix("text/plain") == true)
                #expect(String(decoding: reply.body, as: UTF8.self) == "not found\n")
            }
            for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
                let reply = try RawHTTP.get(port: served.port, "/", method: method)
                #expect(reply.status == 405, "\(method)")
                #expect(reply.headers["allow"] == "GET, HEAD")
            }
        }
    }
}
