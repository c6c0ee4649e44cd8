import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline

/// An animated GIF, WebP or AVIF plays in the photo view, at fit, at its own timing and round again:
/// its frames are made once in the background (`TilePipeline.animate`), the still picture shown
/// until the second one is ready. Zooming in shows the still picture to pan over; stepping to
/// another photo, or leaving the view, lets the frames go.
struct Playback {
    let frames: AnimationFrames
    /// The frame on screen.
    var shown = 0
    /// When the next frame is due (the app clock's ms); nil until the first is on screen.
    var due: Int?
}

extension PhotoView {
    /// `content`, or the animation's frame on screen in its place while one plays.
    func playing(_ content: TileContent, request: TileRequest?, _ context: ViewContext) -> TileContent {
        guard let request, !state.isZoomedIn, Animation.mayAnimate(context.session.table[state.photo].format) else {
            stopPlaying()
            return content
        }
        if playback?.frames.request != request {
            stopPlaying()
            playback = Playback(frames: context.session.pipeline.animate(request))
        }
        guard var playback, case let made = playback.frames.now, made.tiles.count > 1, playback.shown < made.tiles.count else { return content }
        if playback.due == nil { playback.due = context.clock.now() + made.milliseconds[playback.shown] }
        self.playback = playback
        return .image(playback.frames.request(ofFrame: playback.shown), made.tiles[playback.shown])
    }

    /// The next frame when its time has come; round to the first once all are made. A frame not
    /// made yet is waited for (the next paint sets the time again).
    func advanceAnimation(now: Int) {
        guard var playback, let due = playback.due, now >= due else { return }
        let made = playback.frames.now
        var next = playback.shown + 1
        if next >= made.tiles.count {
            guard made.finished else {
                playback.due = nil
                self.playback = playback
                return
            }
            next = 0
        }
        playback.shown = next
        playback.due = now + made.milliseconds[next]
        self.playback = playback
    }

    func stopPlaying() {
        playback?.frames.cancel()
        playback = nil
    }

    /// How many frames play, for the status line (and what was left out).
    var framesStatus: StatusLine.Part? {
        guard let playback, case let made = playback.frames.now, made.tiles.count > 1 else { return nil }
        let count = made.finished ? "\(made.tiles.count) frames" : "\(made.tiles.count)+ frames"
        return StatusLine.Part(made.cut.map { "\(count): \($0)" } ?? count, dropOrder: 2)
    }
}
