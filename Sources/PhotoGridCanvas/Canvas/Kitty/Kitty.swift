import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A picture ready for the kitty graphics protocol: its RGB pixels compressed with zlib and
/// base64-encoded on a worker, so that the thread that owns the terminal only frames and writes
/// them. 24-bit, no palette and no dithering.
package struct KittyPicture: Sendable {
    package var width: Int, height: Int
    /// base64 of the zlib stream of the rows of RGB; the rows of RGB themselves when `isFile`.
    package var payload: [UInt8]
    /// Sent as a file the terminal reads (`t=t`), not through the pty.
    package var isFile = false
    /// Tells apart two encodes of the same tile (a file changed and made again after Ctrl-R),
    /// so that the terminal's copy is replaced rather than shown stale.
    package var serial: UInt64
}

/// The kitty graphics protocol (https://sw.kovidgoyal.net/kitty/graphics-protocol/): the escape
/// sequences photogrid sends, each an APC `ESC _ G keys ; payload ESC \`. Every command is
/// quiet (`q=2`): an answer would arrive on stdin among the keys.
package enum Kitty {
    package typealias Transfer = KittyTransfer

    /// Payload bytes per chunk: the protocol's limit for a chunk sent over the terminal.
    static let chunkSize = 4096

    /// Pictures are drawn over the cells (z 0). The protocol can put them under the text (z < 0)
    /// or under coloured cells too, but kitty 0.26 then drew no cell's background colour at all,
    /// the focus frame's included (a 40x40 picture at z -1 and two amber bars: the bars vanished;
    /// at z 0 they show). What must show over a picture gives way instead: the details panel
    /// clips the pictures (`KittyScreen.clip`), and a tile's badges are cells its picture leaves
    /// uncovered (`KittyScreen.show`'s `uncovered`).
    static let zIndex = 0

    private static let serials = Locked<UInt64>(0)

    /// A serial no picture of this run has had.
    static func newSerial() -> UInt64 { serials.withLock { value -> UInt64 in value += 1; return value } }

    /// Compresses and encodes `image` (on a worker); as files, keeps its rows as they are.
    package static func picture(_ image: RGBImage, transfer: Transfer = .inline) -> KittyPicture {
        let serial = newSerial()
        if transfer == .file {
            return KittyPicture(width: image.width, height: image.height, payload: image.pixels, isFile: true, serial: serial)
        }
        return KittyPicture(width: image.width, height: image.height, payload: Base64.encode(KittyPNG.encode(image) ?? []), serial: serial)
    }

    /// Stores the picture in the terminal as image `id` (a=t), without showing it: in chunks, or
    /// as a file (through the pty after all if the file cannot be written).
    static func transmit(_ picture: KittyPicture, id: UInt32) -> [UInt8] {
        guard picture.isFile else { return frame(picture, keys: "a=t,i=\(id)") }
        if let path = TemporaryFiles.write(picture.payload) {
            return command("a=t,i=\(id),t=t,f=24,s=\(picture.width),v=\(picture.height)", payload: Base64.encode(Array(path.utf8)))
        }
        return frame(inlined(picture), keys: "a=t,i=\(id)")
    }

    /// A file picture made fit for the pty.
    static func inlined(_ picture: KittyPicture) -> KittyPicture {
        guard picture.isFile else { return picture }
        var inline = picture
        let image = RGBImage(width: picture.width, height: picture.height, pixels: picture.payload)
        inline.payload = Base64.encode(KittyPNG.encode(image) ?? [])
        inline.isFile = false
        return inline
    }

    /// The probe's question whether the terminal reads files from here: the picture of one
    /// pixel in `path`, asked about (a=q) as a temporary file.
    package static func fileQuery(path: String) -> [UInt8] {
        Array("\u{1B}_Gi=\(fileQueryID),s=1,v=1,a=q,t=t,f=24;".utf8) + Base64.encode(Array(path.utf8)) + Array("\u{1B}\\".utf8)
    }
    package static let fileQueryID = 32

    /// The probe's file: one black pixel. nil when it cannot be written.
    package static func writeProbeFile() -> String? { TemporaryFiles.write([0, 0, 0]) }

    /// Removes a file of ours the terminal did not read.
    package static func remove(_ path: String) { RawPath(path).remove() }

    /// Stores and shows the picture at the cursor in one (a=T), over `columns` x `rows` cells,
    /// the cursor left where it was: for `--print`, which keeps nothing in the terminal. A file
    /// picture goes as a file (the printer then waits for the terminal to have read it, and
    /// removes what it has not: `TemporaryFiles.removeLeftovers`).
    static func display(_ picture: KittyPicture, columns: Int, rows: Int) -> [UInt8] {
        let keys = "a=T,c=\(columns),r=\(rows),C=1,z=\(zIndex)"
        if picture.isFile, let path = TemporaryFiles.write(picture.payload) {
            return command(keys + ",t=t,f=24,s=\(picture.width),v=\(picture.height)", payload: Base64.encode(Array(path.utf8)))
        }
        return frame(inlined(picture), keys: keys)
    }

    /// Shows image `id` at the cursor over `columns` x `rows` cells, only the part `source` (in
    /// pixels) when given (a tile cut by the screen's edge, or the piece of it a panel leaves).
    /// Placing it again under the same placement number moves it.
    static func place(id: UInt32, columns: Int, rows: Int, source: (x: Int, y: Int, width: Int, height: Int)? = nil,
                      placement: Int = 1) -> [UInt8] {
        let part = source.map { ",x=\($0.x),y=\($0.y),w=\($0.width),h=\($0.height)" } ?? ""
        return command("a=p,i=\(id),p=\(placement),c=\(columns),r=\(rows)\(part),C=1,z=\(zIndex)")
    }

    /// Places image `id` a second time and more (placement `placement`, 2 and up) over
    /// `columns` x `rows` cells above the tiles (z 1): the focus frame's sides over pictures.
    static func placeAbove(id: UInt32, placement: Int, columns: Int, rows: Int) -> [UInt8] {
        command("a=p,i=\(id),p=\(placement),c=\(columns),r=\(rows),C=1,z=1")
    }

    /// Takes one placement of image `id` off the screen.
    static func hide(id: UInt32, placement: Int) -> [UInt8] { command("a=d,d=i,i=\(id),p=\(placement)") }

    /// Takes image `id` off the screen; the terminal keeps its pixels to be placed again.
    static func hide(id: UInt32) -> [UInt8] { command("a=d,d=i,i=\(id)") }

    /// Frees image `id` in the terminal.
    static func delete(id: UInt32, throughTmux: Bool = false) -> [UInt8] {
        let bytes = command("a=d,d=I,i=\(id)")
        return throughTmux ? KittyPlaceholders.throughTmux(bytes) : bytes
    }

    /// Takes every image off the screen, keeping their pixels.
    static let hideAll = command("a=d,d=a")

    /// Frees every image: at exit, and when the terminal may have lost track of them.
    package static let deleteAll = command("a=d,d=A")

    /// The start-up query: a 1x1 picture sent as a query (`a=q`), which a terminal that speaks
    /// the protocol answers `ESC _ G i=31 ; OK ESC \` without storing it.
    package static let query = Array("\u{1B}_Gi=\(queryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
    package static let queryID = 31

    /// After the query, the same pixel sent for real (`a=t`, stored, not shown) and freed at
    /// once (quietly): a terminal that answers the query but not this takes no pictures, and
    /// the next mode down is used. Both answers come before DA1's, so this costs no wait.
    package static let transmitCheck = Array("\u{1B}_Gi=\(transmitCheckID),s=1,v=1,a=t,t=d,f=24;AAAA\u{1B}\\".utf8)
        + command("a=d,d=I,i=\(transmitCheckID)")
    package static let transmitCheckID = 33

    private static func command(_ keys: String, payload: [UInt8] = []) -> [UInt8] {
        Array("\u{1B}_G\(keys),q=2".utf8) + (payload.isEmpty ? [] : [UInt8(ascii: ";")] + payload) + Array("\u{1B}\\".utf8)
    }

    /// Through tmux: stores the picture as image `id` and gives it its virtual placement over
    /// `columns` x `rows` cells in the same command (`a=T,U=1`), which takes effect with the last
    /// chunk. Sent apart, the picture would be without a placement for a moment, and kitty (0.32)
    /// frees every picture without one whenever it clears the screen or frees any picture by id
    /// (`filter_refs` in its graphics.c): tmux clears the screen as it redraws, and pictures sent
    /// during a redraw were lost (three of eight after splitting the window).
    ///
    /// It is preceded by an empty last chunk (`m=0`). tmux drops what passes through it while it is
    /// about to redraw a window (`tty_client_ready` in its tty.c: a resize, a split), so a picture
    /// can lose its last chunks; kitty then takes the next picture's chunks for the rest of that
    /// one (`handle_add_command` in its graphics.c goes on with a load under way), and both are
    /// lost. The empty chunk ends a load left under way, or, with none, is a picture of nothing,
    /// quietly refused. Seen in kitty 0.32.2 under tmux 3.3a: a transfer cut before its last
    /// chunk took the next picture with it; with the empty chunk first, the next one showed.
    static func transmitPlaced(_ picture: KittyPicture, id: UInt32, columns: Int, rows: Int) -> [UInt8] {
        KittyPlaceholders.throughTmux(endOfLoad)
            + frame(inlined(picture), keys: "a=T,U=1,i=\(id),p=1,c=\(columns),r=\(rows)", throughTmux: true)
    }

    /// An empty last chunk, quiet.
    static let endOfLoad = Array("\u{1B}_Gm=0,q=2;\u{1B}\\".utf8)

    /// The picture's transfer: the first chunk with every key, the others with `m` alone.
    private static func frame(_ picture: KittyPicture, keys: String, throughTmux: Bool = false) -> [UInt8] {
        let payload = picture.payload
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / chunkSize * 16 + 128)
        var start = 0
        repeat {
            let end = min(payload.count, start + chunkSize)
            let more = end < payload.count ? 1 : 0
            let head = start == 0 ? "\(keys),f=100,q=2,m=\(more);" : "m=\(more);"
            let chunk = Array("\u{1B}_G".utf8) + Array(head.utf8) + payload[start..<end] + Array("\u{1B}\\".utf8)
            out += throughTmux ? KittyPlaceholders.throughTmux(chunk) : chunk
            start = end
        } while start < payload.count
        return out
    }
}

/// Pictures handed to a kitty terminal on this machine as files. kitty deletes a file sent with
/// `t=t` after reading it when its name contains "tty-graphics-protocol"; what it has not read
/// when photogrid quits is removed (`removeLeftovers`). In /dev/shm (memory) where there is one.
package enum TemporaryFiles {
    private static let counter = Locked(0)

    static var directory: String {
        RawPath("/dev/shm").isWritable ? "/dev/shm" : (Environment.value("TMPDIR") ?? "/tmp")
    }

    static var prefix: String { "photogrid-tty-graphics-protocol-\(ThisProcess.id)-" }

    /// Writes `bytes` to a new file of ours (mode 600, never an existing file); its path, or nil.
    static func write(_ bytes: [UInt8]) -> String? {
        let n = counter.withLock { value -> Int in value += 1; return value }
        let path = directory + "/" + prefix + "\(n)"
        return RawPath(path).createNew(bytes) ? path : nil
    }

    /// Removes the files of this process that the terminal has not read.
    package static func removeLeftovers() {
        let dir = RawPath(directory), prefix = Array(prefix.utf8)
        // Names read through DirectoryEntry: copying a whole `dirent` reads past readdir's buffer.
        for name in DirectoryEntry.names(in: dir) ?? [] where name.starts(with: prefix) { dir.appending(name).remove() }
    }
}
