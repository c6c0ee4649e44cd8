import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// kitty graphics protocol tiles: 24-bit pictures, zlib-compressed and base64-encoded on a worker
/// (or raw rows in a file the terminal reads), each the whole tile even where the screen's edge
/// cuts it: the terminal shows its top part, and the same picture serves when it scrolls in.
package struct KittyFormat: TileFormat {
    package let transfer: Kitty.Transfer
    package var mode: RenderMode { .kitty(transfer) }
    package var name: String { "kitty" }

    package init(transfer: Kitty.Transfer) { self.transfer = transfer }

    /// At the screen's size, or on a slow link smaller (`pictureScale`): kitty scales a picture to
    /// the cells it is placed over.
    package func gridRequest(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, fit: FitMode) -> TileRequest {
        TileRequest(photo: photo, width: scaled(frame.width * screen.cellWidth, screen), height: scaled(frame.height * screen.cellHeight, screen),
                    fit: fit, mode: mode)
    }

    package func viewRequest(_ photo: PhotoID, width: Int, height: Int, crop: CropRegion?, screen: ScreenMetrics) -> TileRequest {
        TileRequest(photo: photo, width: scaled(width, screen), height: scaled(height, screen), fit: .fit, mode: mode, crop: crop)
    }

    private func scaled(_ pixels: Int, _ screen: ScreenMetrics) -> Int {
        screen.pictureScale >= 1 ? pixels : max(1, Int((Double(pixels) * screen.pictureScale).rounded()))
    }

    package func encode(_ image: consuming RGBImage, for request: TileRequest) -> EncodedTile {
        .kitty(Kitty.picture(image, transfer: transfer))
    }

    /// Through the pty and through tmux the bytes are the same (zlib and base64); as a file, raw.
    package func variantName(_ request: TileRequest) -> String { transfer == .file ? "kittyfile" : "kitty" }

    /// Kind 3: width (4), height (4), as a file (1), then the payload.
    package func record(_ tile: EncodedTile) -> [UInt8]? {
        guard case .kitty(let picture) = tile else { return nil }
        var out: [UInt8] = [3]
        TileRecord.append(picture.width, to: &out)
        TileRecord.append(picture.height, to: &out)
        out.append(picture.isFile ? 1 : 0)
        return out + picture.payload
    }

    package func tile(fromRecord payload: [UInt8], for request: TileRequest) -> EncodedTile? {
        guard payload.first == 3 else { return nil }
        var reader = TileRecord.Reader(bytes: payload, at: 1)
        guard let width = reader.number(), let height = reader.number(), width > 0, height > 0,
              width <= 1 << 14, height <= 1 << 14, let isFile = reader.take(1)?.first, isFile == (transfer == .file ? 1 : 0)
        else { return nil }
        let rest = reader.rest
        if isFile == 1 {
            guard rest.count == width * height * 3 else { return nil }
        } else {
            guard !rest.isEmpty, rest.allSatisfy(KittyFormat.isBase64) else { return nil }
        }
        return .kitty(KittyPicture(width: width, height: height, payload: rest, isFile: isFile == 1, serial: Kitty.newSerial()))
    }

    package func makeCanvas() -> any Canvas {
        transfer == .tmux ? KittyTmuxCanvas(format: self, paneShown: TmuxPane.watchThisPane()) : KittyCanvas(format: self)
    }

    static func isBase64(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2B || byte == 0x2F || byte == 0x3D
    }
}
