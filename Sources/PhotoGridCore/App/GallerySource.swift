/// What a grid shows: the photos, where their pixels come from, and a title. A folder on disk
/// here; `PhotoGridRemote` makes one from a URL.
public struct GallerySource: Sendable {
    public var title: String
    public var photos: [Photo]
    public var decoder: PhotoDecoding
    public var tierStore: TierStoring?
    /// Pipeline threads: the cores for a folder; more for a network gallery, whose threads wait
    /// on downloads (decoding and encoding still take at most one core each, `CPUGate`).
    public var workers: Int

    public init(title: String, photos: [Photo], decoder: PhotoDecoding, tierStore: TierStoring?, workers: Int = WorkerThreads.cores) {
        self.title = title
        self.photos = photos
        self.decoder = decoder
        self.tierStore = tierStore
        self.workers = workers
    }

    /// The photos below a folder, with the disk cache unless turned off; a clear error when the
    /// folder cannot be read or holds no photos.
    public static func folder(_ options: Options) throws -> GallerySource {
        GallerySource(title: RawPath(options.path).lastComponent.description, photos: try PhotoGrid.loadPhotos(options.path),
                      decoder: PhotoDecoder(gate: MemoryGate()), tierStore: Caches.tierStore(options))
    }
}
