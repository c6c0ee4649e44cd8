import Foundation
import Glibc
import Testing
@testable import GalleryFormats
import PhotoGridTestFixtures

/// `--url sftp://user@host:port/path/` against OpenSSH's sshd (issue 36): the keys ssh uses, the
/// host checked against ~/.ssh/known_hosts, and the tree read like a web listing's.
@Suite(.serialized) struct SFTPTests {
    @Test func aLongListingIsRead() throws {
        let url = try #require(RemoteURL("sftp://nas/home/anna/Photos/"))
        let text = """
            drwxr-xr-x    3 anna     anna         4096 Nov 26 11:33 .
            drwxr-xr-x    4 anna     anna         4096 Nov 26 11:33 ..
            -rw-r--r--    1 anna     anna       120828 Nov 26 11:33 beach 01.jpg
            drwxr-xr-x    2 anna     anna         4096 Nov 26  2024 2024
            lrwxrwxrwx    1 anna     anna           12 Nov 26 11:33 latest -> 2024/trip
            lrwxrwxrwx    1 anna     anna           12 Nov 26 11:33 cover.jpg -> 2024/a.jpg
            """
        let listing = try #require(DirectoryListing.sftp(Array(text.utf8), url: url))
        #expect(listing.files.map(\.name) == ["beach 01.jpg", "cover.jpg"])
        #expect(listing.files.first?.url.description == "sftp://nas/home/anna/Photos/beach%2001.jpg")
        #expect(listing.folders.map(\.name) == ["2024", "latest"])
        #expect(DirectoryListing.sftp(Array("not a listing\n".utf8), url: url) == nil)
    }

    @Test(.startsPrograms, .enabled(if: SSHServer.path != nil && SSHServer.keygen != nil, "openssh-server is not installed (scripts/setup --test installs it)"))
    func aFolderOverSFTPShowsEveryPhotoAndAnUnknownHostIsRefused() throws {
        let share = RemotePaths.scratch("sftp-share")
        defer { try? FileManager.default.removeItem(atPath: share) }
        try FileManager.default.createDirectory(atPath: share + "/2024/trip", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/travel/beach-01.jpg", toPath: share + "/beach-01.jpg")
        try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/travel/sunset-04.jpg", toPath: share + "/2024/trip/sunset 04.jpg")
        try SSHServer.serving { ssh in
            let url = "sftp://\(SSHServer.user)@127.0.0.1:\(ssh.port)\(share)/"
            let cache = RemotePaths.scratch("sftp-client")
            defer { try? FileManager.default.removeItem(atPath: cache) }
            let environment = ["HOME": ssh.home]
            let shown = try RemotePaths.print(RemotePaths.frame + ["--url", url], cacheHome: cache, environment: environment)
            #expect(shown.status == 0, "\(shown.errorText)")
            let text = String(decoding: shown.output, as: UTF8.self)
            #expect(text.contains("beach-01.jpg") && text.contains("sunset 04.jpg"), "\(shown.errorText)")
            // A host known_hosts does not hold, and one whose key changed: refused in ssh's words.
            try "".write(toFile: ssh.home + "/.ssh/known_hosts", atomically: true, encoding: .utf8)
            let unknown = try RemotePaths.print(RemotePaths.frame + ["--url", url], cacheHome: cache, environment: environment)
            #expect(unknown.status != 0 && unknown.errorText.contains("Host key verification failed"), "\(unknown.errorText)")
            try (ssh.otherKey + "\n").write(toFile: ssh.home + "/.ssh/known_hosts", atomically: true, encoding: .utf8)
            let changed = try RemotePaths.print(RemotePaths.frame + ["--url", url], cacheHome: cache, environment: environment)
            #expect(changed.status != 0 && changed.errorText.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), "\(changed.errorText)")
        }
    }
}
