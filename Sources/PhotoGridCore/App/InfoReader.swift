import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Photos' details read outside the pipeline (the date order, `--print`'s dates): what the
/// gallery says, else the photo's head through its loader and decoder. On the calling thread,
/// a background reader's own, which waits for the loader's answers with a few loads under way
/// at a time: a remote gallery's heads come over the network in parallel, a folder's at once.
package struct InfoReader: Sendable {
    let loader: PhotoLoading
    let decoder: PhotoDecoding
    /// Loads under way at a time.
    static let window = 8

    package init(loader: PhotoLoading, decoder: PhotoDecoding) {
        self.loader = loader
        self.decoder = decoder
    }

    /// Each photo's details, handed to `each` on this thread as they come (not in order); stops
    /// when `each` returns false.
    package func read(_ photos: [Photo], each: (Photo, PhotoInfo?) -> Bool) {
        let condition = Condition()
        let arrived = Locked<[(Photo, Result<PhotoBytes, DecodeError>)]>([])
        var pending: [LoadTicket] = []
        var outstanding = 0
        defer { pending.forEach { $0.cancel() } }
        func take() -> Bool {
            condition.lock()
            while arrived.withLock({ $0.isEmpty }) { condition.wait() }
            let come = arrived.withLock { list in defer { list = [] }; return list }
            condition.unlock()
            for (photo, bytes) in come {
                outstanding -= 1
                guard each(photo, (try? bytes.get()).flatMap { decoder.info(of: photo, from: $0) }) else { return false }
            }
            return true
        }
        for photo in photos {
            if let known = loader.knownInfo(of: photo) {
                guard each(photo, known) else { return }
                continue
            }
            let start = loader.load(photo, .details) { result in
                condition.lock()
                arrived.withLock { $0.append((photo, result)) }
                condition.broadcast()
                condition.unlock()
            }
            switch start {
            case .ready(let bytes):
                guard each(photo, (try? bytes.get()).flatMap { decoder.info(of: photo, from: $0) }) else { return }
            case .pending(let ticket):
                pending.append(ticket)
                outstanding += 1
                while outstanding >= InfoReader.window { guard take() else { return } }
            }
        }
        while outstanding > 0 { guard take() else { return } }
        pending = []
    }

    /// One photo's details, waited for.
    package func info(of photo: Photo) -> PhotoInfo? {
        var found: PhotoInfo?
        read([photo]) { found = $1; return false }
        return found
    }
}
