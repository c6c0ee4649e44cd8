import PhotoGridCore

/// A placement's key: kitty keeps one placement per image id and placement id.
struct KittyPlacementKey: Hashable { var image: UInt32; var placement: Int }

/// Where a picture is shown: its cell rectangle, the part of the picture it shows, its layer.
struct KittyPlacement {
    var row: Int, column: Int, columns: Int, rows: Int
    var x: Int, y: Int, width: Int?, height: Int?
    var z: Int
    /// Placed later goes above at the same z.
    var order: Int
}

/// The kitty graphics protocol as the model plays it (https://sw.kovidgoyal.net/kitty/graphics-protocol/):
/// transmissions in chunks (`a=t`, `a=T`, `m=1` to continue), RGB or RGBA, zlib or not;
/// placements by id and placement id over a cell rectangle and a source rectangle (`a=p`);
/// deletions of placements and images (`a=d`, `d=a/A/i/I`). Pictures are drawn over the text.
extension ModelTerminal {
    mutating func kittyCommand(_ body: [UInt8]) {
        let split = body.firstIndex(of: UInt8(ascii: ";"))
        let keyText = String(decoding: body[..<(split ?? body.count)], as: UTF8.self)
        let payload = split.map { Array(body[($0 + 1)...]) } ?? []
        var keys: [String: String] = [:]
        for pair in keyText.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
        }
        // The chunks after the first carry only `m`: they go on with the load under way.
        if var load = loading {
            load.payload += payload
            if keys["m"] == "1" { loading = load; return }
            loading = nil
            finishLoad(load.keys, load.payload)
            return
        }
        let action = keys["a"] ?? "t"
        switch action {
        case "t", "T":
            if keys["m"] == "1" { loading = (keys, payload); return }
            finishLoad(keys, payload)
        case "p":
            guard let id = keys["i"].flatMap(UInt32.init), images[id] != nil else { return }
            place(id, keys)
        case "d":
            delete(keys)
        default: break
        }
    }

    /// A whole picture has arrived: stored under its id, and placed at the cursor for `a=T`.
    private mutating func finishLoad(_ keys: [String: String], _ payload: [UInt8]) {
        guard let id = keys["i"].flatMap(UInt32.init), keys["t"] == nil || keys["t"] == "d", var bytes = Base64.decode(payload) else { return }
        // A PNG (f=100) says its own size; kitty decodes it as any PNG.
        if keys["f"] == "100" {
            guard let image = try? PNG.decode(bytes) else { return }
            images[id] = image
            if keys["a"] == "T" { place(id, keys) }
            return
        }
        guard let width = keys["s"].flatMap(Int.init), let height = keys["v"].flatMap(Int.init) else { return }
        let channels = keys["f"] == "32" ? 4 : 3
        if keys["o"] == "z" {
            guard let inflated = Zlib.decompress(bytes, limit: width * height * channels) else { return }
            bytes = inflated
        }
        guard bytes.count == width * height * channels else { return }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for i in stride(from: 0, to: bytes.count, by: channels) { rgb += bytes[i..<(i + 3)] }
        images[id] = RGBImage(width: width, height: height, pixels: rgb)
        if keys["a"] == "T" { place(id, keys) }
    }

    private mutating func place(_ id: UInt32, _ keys: [String: String]) {
        guard let image = images[id] else { return }
        func number(_ key: String) -> Int? { keys[key].flatMap(Int.init) }
        let columns = number("c") ?? (image.width + cellWidth - 1) / cellWidth
        let rows = number("r") ?? (image.height + cellHeight - 1) / cellHeight
        placementOrder += 1
        placements[KittyPlacementKey(image: id, placement: number("p") ?? -placementOrder)] = KittyPlacement(
            row: row, column: column, columns: columns, rows: rows, x: number("x") ?? 0, y: number("y") ?? 0,
            width: number("w"), height: number("h"), z: number("z") ?? 0, order: placementOrder)
    }

    private mutating func delete(_ keys: [String: String]) {
        switch keys["d"] ?? "a" {
        case "a": placements = [:]
        case "A": placements = [:]; images = [:]
        case "i", "I":
            guard let id = keys["i"].flatMap(UInt32.init) else { return }
            let placement = keys["p"].flatMap(Int.init)
            placements = placements.filter { $0.key.image != id || (placement != nil && $0.key.placement != placement) }
            if keys["d"] == "I" { images[id] = nil }
        default: break
        }
    }

    /// The colour of the topmost picture over a cell, at the cell's centre; nil where none is.
    func kittyColour(row y: Int, column x: Int) -> RGB? {
        var best: (z: Int, order: Int, colour: RGB)?
        for (key, p) in placements where y >= p.row && y < p.row + p.rows && x >= p.column && x < p.column + p.columns {
            guard let image = images[key.image], p.columns > 0, p.rows > 0 else { continue }
            if let best, (best.z, best.order) > (p.z, p.order) { continue }
            let width = p.width ?? image.width - p.x, height = p.height ?? image.height - p.y
            let px = p.x + (2 * (x - p.column) + 1) * width / (2 * p.columns)
            let py = p.y + (2 * (y - p.row) + 1) * height / (2 * p.rows)
            guard px >= 0, py >= 0, px < image.width, py < image.height else { continue }
            best = (p.z, p.order, image[px, py])
        }
        return best?.colour
    }
}
