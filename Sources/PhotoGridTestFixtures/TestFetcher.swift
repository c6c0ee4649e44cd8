import GalleryFormats
import PhotoGridCore
import PhotoGridServe
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

extension Fetcher {
    /// A fetcher on a transfer loop of its own, as photogrid's but quicker to give up on a
    /// server that sends nothing: `stallSeconds` without a byte ends a transfer. Connections
    /// wait as long as photogrid's (a loaded machine's test servers accept slowly).
    package static func forTests(cache: HTTPCache? = nil, retries: Int = 2, stallSeconds: Int = 10) -> Fetcher {
        var settings = TransferSettings()
        settings.retries = retries
        settings.stallTimeout = stallSeconds
        // Nothing of the machine's own: no netrc login, no SSH key.
        settings.netrcFile = "/dev/null"
        settings.sshKey = nil
        return Fetcher(loop: TransferLoop(settings: settings), cache: cache)
    }

    /// The body of `url`, waited for: how the tests ask.
    package func get(_ url: RemoteURL, range: Range<Int>?, limit: Int) throws(FetchError) -> FetchResult {
        try waitFor(url, range: range, limit: limit)
    }
}

extension PhotoLoading {
    /// `photo`'s bytes for `want`, waited for.
    package func waitForLoad(_ photo: Photo, _ want: LoadWant) -> Result<PhotoBytes, DecodeError> {
        let answer = Pending<Result<PhotoBytes, DecodeError>>()
        switch load(photo, want, then: { answer.fulfil($0) }) {
        case .ready(let result): return result
        case .pending: return answer.wait()
        }
    }
}
