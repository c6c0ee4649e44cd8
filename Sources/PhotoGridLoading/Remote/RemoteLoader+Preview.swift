import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// A listing's camera JPEG whose head holds a Multi-Picture index (`MultiPicture`): its larger
/// preview, a few hundred KB at the end of the file, is asked for as a second byte range when it
/// likely covers the tile, instead of the whole original (5-25 MB). Over a 12 Mbit/s link that
/// is a tenth of a second a photo where the original took seconds.
extension RemoteLoader {
    /// A preview's short side is guessed from its share of the file's bytes, the photo's pixels
    /// being known from the head: camera previews are compressed harder than their photos (the
    /// benchmark's copies: a third fewer pixels than the guess), so one that may fall short by
    /// this factor is still asked for. Guessed wrong, it costs its bytes and a round trip before
    /// the original, as a thumbnail too small costs the head.
    static let previewGuessMargin = 1.5

    /// Where in the original the preview lies, when the head points past itself to one that may
    /// cover `size` and its EXIF thumbnail does not; nil otherwise.
    static func previewRange(in head: [UInt8], covering size: Int) -> Range<Int>? {
        guard let header = try? JPEG.readHeader(head), let range = header.preview, range.lowerBound >= head.count,
              range.count <= PhotoDecoder.largestPreview else { return nil }
        // Where the EXIF thumbnail covers the tile (a half-block grid's), the head is enough.
        if PhotoDecoder.thumbnailMayCover(header, size) { return nil }
        let guess = Double(min(header.width, header.height)) * (Double(range.count) / Double(range.lowerBound)).squareRoot()
        return guess * previewGuessMargin >= Double(size) ? range : nil
    }

    /// The head, then the preview it points to where that may cover `size`: handed over as
    /// `.preview`, or as `.head` when there is none or it did not come (the decoder then says
    /// the head is not enough, and the original is asked for).
    func headThenPreview(_ remote: RemotePhoto, size: Int, then: @escaping LoadCompletion) -> LoadStart {
        let fileSize = remote.bytes
        let asHead: @Sendable ([UInt8]) -> PhotoBytes = { bytes in
            bytes.count < RemoteLoader.headLength ? .whole(bytes) : .head(bytes, fileSize: fileSize)
        }
        // The ticket of whichever request is under way; cancelled, no second one starts. A
        // server that answered the head's range with the whole file (python's http.server) would
        // answer the preview's so too: then the original is asked for next, as before.
        let current = Locked<(ticket: LoadTicket?, cancelled: Bool, ranged: Bool)>((nil, false, true))
        // The second request for a head that has come; nil when there is none to make.
        let second: @Sendable (Result<PhotoBytes, DecodeError>) -> LoadStart? = { [self] result in
            guard case .success(.head(let head, _)) = result, let range = RemoteLoader.previewRange(in: head, covering: size),
                  current.withLock({ !$0.cancelled && $0.ranged }) else { return nil }
            return fetch(remote.original, range: range, then: { then(RemoteLoader.joined(head, fileSize, $0)) }) { .preview(head: head, preview: $0) }
        }
        // A second request's ticket takes the first's place; one that starts as the load is let
        // go is cancelled at once.
        let keep: @Sendable (LoadTicket) -> Void = { ticket in
            if current.withLock({ state -> Bool in state.ticket = ticket; return state.cancelled }) { ticket.cancel() }
        }
        let first = fetch(remote.original, range: 0..<RemoteLoader.headLength, then: { result in
            switch second(result) {
            case nil: then(result)
            case .ready(let preview): then(RemoteLoader.joined(result, preview))
            case .pending(let ticket): keep(ticket)
            }
        }, answer: { answer in
            if answer.status != 206 { current.withLock { $0.ranged = false } }
            return asHead(answer.body)
        })
        let cancel = LoadTicket {
            current.withLock { state -> LoadTicket? in
                state.cancelled = true
                return state.ticket
            }?.cancel()
        }
        switch first {
        case .ready(let result):
            switch second(result) {
            case nil: return first
            case .ready(let preview): return .ready(RemoteLoader.joined(result, preview))
            case .pending(let ticket):
                keep(ticket)
                return .pending(cancel)
            }
        case .pending(let ticket):
            // The head may have come already and its preview's request taken the place.
            current.withLock { if $0.ticket == nil { $0.ticket = ticket } }
            return .pending(cancel)
        }
    }

    /// The preview's answer: a failed request for it leaves the head alone, whose decode then
    /// asks for the original, unless the request was cancelled.
    static func joined(_ head: [UInt8], _ fileSize: Int?, _ result: Result<PhotoBytes, DecodeError>) -> Result<PhotoBytes, DecodeError> {
        guard case .failure(let error) = result else { return result }
        if case .cancelled = error { return result }
        return .success(.head(head, fileSize: fileSize))
    }

    static func joined(_ head: Result<PhotoBytes, DecodeError>, _ preview: Result<PhotoBytes, DecodeError>) -> Result<PhotoBytes, DecodeError> {
        guard case .success(.head(let bytes, let fileSize)) = head else { return head }
        return joined(bytes, fileSize, preview)
    }
}
