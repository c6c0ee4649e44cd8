import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline

/// `v` in the photo view of a RAW+JPEG pair shows the raw file in the JPEG's place (its preview,
/// developed where zooming in needs more), and `v` again the JPEG: what a photographer compares
/// before choosing which to keep. Made aside from the grid's tiles (`TilePipeline.makeAside`);
/// the picture before stays on screen until the next is made. Stepping to another photo shows
/// its JPEG again.
extension PhotoView {
    /// The raw file shown in place of the photo, while `v` asks for it.
    func shownRaw(_ context: ViewContext) -> Photo? {
        guard showingRaw == state.photo else { return nil }
        return context.gallery.raws[context.session.table[state.photo].source]
    }

    func toggleRaw(_ context: ViewContext) -> [Action] {
        let photo = context.session.table[state.photo]
        guard let raw = context.gallery.raws[photo.source] else { return [.notice("no raw file beside \(photo.name)")] }
        showingRaw = showingRaw == state.photo ? nil : state.photo
        return [.notice("showing " + (showingRaw == nil ? photo.name : raw.name))]
    }

    /// What the view shows in place of `content` while the raw file is shown.
    func rawContent(_ content: TileContent, request: TileRequest?, _ context: ViewContext) -> TileContent {
        guard let raw = shownRaw(context), var request else {
            aside?.cancel()
            (aside, asideShown) = (nil, nil)
            if showingRaw != nil && showingRaw != state.photo { showingRaw = nil }
            return content
        }
        request.fromRaw = true
        if aside?.request != request || aside?.photo.source != raw.source {
            aside?.cancel()
            aside = context.session.pipeline.makeAside(raw, for: request)
        }
        switch aside?.result {
        case .success(let tile)?:
            asideShown = (request, tile)
            return .image(request, tile)
        case .failure(let error)?:
            return .failed("\(raw.name): \(error.reason)")
        case nil:
            // The raw file's last picture (before a zoom) until the new one is made.
            return asideShown.map { .preview($0.request, $0.tile) } ?? .loading
        }
    }
}
