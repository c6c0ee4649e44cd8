import Testing
import PhotoGridCore
import GalleryFormats
@testable import PhotoGridRemote

/// `--url` with something that is not an http URL: the message says what is wrong with it.
@Suite struct RemoteCommandTests {
    @Test func aURLThatIsRefusedSaysWhy() {
        let cases = [
            ("ftp://example.com/", "not an http or https URL"),
            ("file:///etc/passwd", "not an http or https URL"),
            ("/home/me/Pictures", "not an http or https URL"),
            ("example.com/gallery", "not an http or https URL (did you mean http://example.com/gallery?)"),
            ("http://", "not a valid URL (no host, or a malformed one)"),
            ("HTTPS://[::1", "not a valid URL (no host, or a malformed one)"),
        ]
        for (text, message) in cases {
            #expect(RemoteURL(text) == nil, "\(text) was taken")
            #expect(RemoteCommand.problem(with: text) == message)
        }
    }
}
