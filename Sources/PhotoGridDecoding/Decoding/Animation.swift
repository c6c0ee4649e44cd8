import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The frames of an animated GIF, WebP or AVIF sequence as a browser shows them, one after the other, for the
/// photo view to play: each the whole picture (frames drawn over what came before, their
/// rectangles given back as the file says), with its time on screen. Frames are handed on as
/// they are made and not kept here, so what an animation costs is the caller's to bound.
package enum Animation {
    package struct Frame: Sendable {
        package var image: RGBImage
        package var milliseconds: Int
    }

    /// Browsers show a frame whose time says 10 ms or less (often 0, "as fast as you can") for
    /// 100 ms; so does photogrid, so that such a file plays as it does on the web.
    static func shownFor(_ milliseconds: Int) -> Int { milliseconds <= 10 ? 100 : milliseconds }

    /// Whether files of `format` may hold an animation.
    package static func mayAnimate(_ format: ImageFormat) -> Bool { format == .gif || format == .webp || format == .avif }

    /// Each frame of the animation in `data`, handed to `each` until it returns false; none for a
    /// still picture's file or a format that has no animations.
    package static func frames(_ data: [UInt8], maxPixels: Int = JPEG.defaultMaxPixels, each: (Frame) -> Bool) throws(DecodeError) {
        if WebP.isWebP(data) {
            try WebP.frames(data, maxPixels: maxPixels) { each(Frame(image: $0, milliseconds: shownFor($1))) }
        } else if GIF.isGIF(data) {
            try gifFrames(data, maxPixels: maxPixels, each: each)
        } else if AVIF.isSequence(data) {
            try AVIF.frames(data, maxPixels: maxPixels) { each(Frame(image: $0, milliseconds: shownFor($1))) }
        }
    }

    /// A GIF's frames drawn on its logical screen, which starts as `PNG.background` (as its first
    /// frame alone is shown elsewhere); a frame's transparent pixels leave what is under them.
    private static func gifFrames(_ data: [UInt8], maxPixels: Int, each: (Frame) -> Bool) throws(DecodeError) {
        let background = RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b))
        var canvas: RGBImage?
        // What the last frame asks to be done with its rectangle before the next is drawn.
        var undo: (left: Int, top: Int, right: Int, bottom: Int, disposal: Int, saved: RGBImage?)?
        try GIF.storedFrames(data, maxPixels: maxPixels) { header, frame in
            if canvas == nil {
                let width = header.width > 0 ? header.width : frame.left + frame.width
                let height = header.height > 0 ? header.height : frame.top + frame.height
                canvas = RGBImage(width: width, height: height, fill: background)
            }
            guard var screen = canvas else { return false }
            if let undo {
                for y in undo.top..<undo.bottom {
                    for x in undo.left..<undo.right {
                        if undo.disposal == 2 { screen[x, y] = background } else if let saved = undo.saved { screen[x, y] = saved[x - undo.left, y - undo.top] }
                    }
                }
            }
            let (left, top) = (min(frame.left, screen.width), min(frame.top, screen.height))
            let (right, bottom) = (min(frame.left + frame.width, screen.width), min(frame.top + frame.height, screen.height))
            var saved: RGBImage?
            if frame.disposal == 3, right > left, bottom > top {
                var copy = RGBImage(width: right - left, height: bottom - top)
                for y in top..<bottom { for x in left..<right { copy[x - left, y - top] = screen[x, y] } }
                saved = copy
            }
            frame.indices.withUnsafeBufferPointer { indices in
                for y in top..<bottom {
                    let row = (y - frame.top) * frame.width - frame.left
                    for x in left..<right {
                        let index = Int(indices[row + x])
                        if index != frame.transparent { screen[x, y] = frame.colours[index] }
                    }
                }
            }
            undo = frame.disposal == 2 || frame.disposal == 3 ? (left, top, right, bottom, frame.disposal, saved) : nil
            canvas = screen
            return each(Frame(image: screen, milliseconds: shownFor(frame.delay * 10)))
        }
    }
}

extension PhotoDecoder {
    package func frames(of photo: Photo, from bytes: PhotoBytes, each: (Animation.Frame) -> Bool) throws(DecodeError) {
        guard Animation.mayAnimate(photo.format) else { return }
        switch bytes {
        case .file(let path): try Animation.frames(try FileReader.read(path), each: each)
        case .whole(let data): try Animation.frames(data, each: each)
        case .head, .preview: return
        }
    }
}
