import PhotoGridModel
/// Many renditions in one request and one streamed response (docs/remote-gallery.md, "Batches"):
/// the request's body names them, one target a line; the response carries one part for each,
/// in whatever order the server has them ready, each a short head and its bytes.
package enum Batch {
    /// The response's media type.
    package static let contentType = "application/x-photogrid-batch"
    /// The most items one request may name.
    package static let maxItems = 256
    /// The most a request's body may take.
    package static let maxRequestBytes = 64 * 1024
    /// The most a part's head (its line and its header lines) may take.
    package static let maxHeadBytes = 8 * 1024
    /// What ends a response, after its last part.
    package static let end = Array("END\r\n".utf8)

    /// A request's body: each item's target (its path and query, as in a request line), one a line.
    package static func requestBody(_ targets: [String]) -> [UInt8] {
        var body: [UInt8] = []
        for target in targets {
            body += target.utf8
            body.append(UInt8(ascii: "\n"))
        }
        return body
    }

    /// The targets a request's body names, in order; nil when it breaks the format: too long,
    /// too many lines, an empty one, one that is not a path, or a byte that no request line holds.
    package static func targets(in body: [UInt8]) -> [String]? {
        guard body.count <= maxRequestBytes else { return nil }
        var lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty, lines.count <= maxItems else { return nil }
        var targets: [String] = []
        for var line in lines {
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard line.first == UInt8(ascii: "/"), line.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
            targets.append(String(decoding: line, as: UTF8.self))
        }
        return targets
    }

    /// The first visit's opening batch (docs/remote-gallery.md, "The opening batch"): asked
    /// for beside the manifest, before the client knows the photos' names, it names none. It
    /// asks for the manifest's first `count` photos, each in the smallest rendition of the
    /// manifest's template whose short side is at least `covering` pixels (the choice
    /// `RemotePhoto.source(coveringShortSide:)` makes); part `i` is photo `i`'s, and says which
    /// rendition it is in `Content-Location`. A gallery small enough for a first screen of
    /// another shape (it fits on one screen at fewer columns, which the grid starts at) takes
    /// the first of `bySize` whose `upTo` its photo count is within instead.
    package struct Opening: Equatable, Sendable {
        package var count: Int
        package var covering: Int
        package var bySize: [Choice] = []

        /// For a gallery of at most `upTo` photos: its first `count` photos covering `covering`.
        package struct Choice: Equatable, Sendable {
            package var upTo: Int
            package var count: Int
            package var covering: Int
            package init(upTo: Int, count: Int, covering: Int) {
                self.upTo = upTo
                self.count = count
                self.covering = covering
            }
        }

        package init(count: Int, covering: Int, bySize: [Choice] = []) {
            self.count = count
            self.covering = covering
            self.bySize = bySize
        }

        /// The most choices a body may carry: one for each column count the grid has, and two more.
        static let maxChoices = 8

        /// What it asks of a gallery of `photos` photos: how many, covering how many pixels.
        package func screen(forPhotos photos: Int) -> (count: Int, covering: Int) {
            guard let choice = bySize.first(where: { photos <= $0.upTo }) else { return (count, covering) }
            return (choice.count, choice.covering)
        }

        /// The most photos it may ask for, whatever the gallery's size.
        package var mostPhotos: Int { bySize.map(\.count).reduce(count, max) }

        /// Its body: the line `first COUNT covering PIXELS`, then a line `upto PHOTOS first COUNT
        /// covering PIXELS` for each choice by size.
        package var body: [UInt8] {
            Array(("first \(count) covering \(covering)\n"
                   + bySize.map { "upto \($0.upTo) first \($0.count) covering \($0.covering)\n" }.joined()).utf8)
        }

        /// The opening a request's body asks for; nil when it is not one, or asks for more than
        /// a batch may hold or a size no photo has.
        package init?(body: [UInt8]) {
            guard body.count <= 512 else { return nil }
            var lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            guard let first = lines.first, lines.count <= 1 + Opening.maxChoices,
                  let (count, covering) = Opening.request(first) else { return nil }
            var choices: [Choice] = []
            for line in lines.dropFirst() {
                let words = Opening.words(line)
                guard words.count == 6, Array(words[0]) == Array("upto".utf8), let upTo = BatchReader.number(words[1]),
                      upTo >= 1, let (count, covering) = Opening.request(line.dropFirst(words[0].count + words[1].count + 2))
                else { return nil }
                choices.append(Choice(upTo: upTo, count: count, covering: covering))
            }
            self.init(count: count, covering: covering, bySize: choices)
        }

        /// `first COUNT covering PIXELS`, within the limits.
        private static func request(_ line: ArraySlice<UInt8>) -> (Int, Int)? {
            let words = words(line)
            guard words.count == 4, Array(words[0]) == Array("first".utf8), Array(words[2]) == Array("covering".utf8),
                  let count = BatchReader.number(words[1]), let covering = BatchReader.number(words[3]),
                  (1...Batch.maxItems).contains(count), (1...1 << 20).contains(covering) else { return nil }
            return (count, covering)
        }

        private static func words(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
            var line = line
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            return line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        }
    }

    /// The size an opening batch takes of a photo's renditions: the smallest of `sizes` (smallest
    /// first) whose short side covers `covering`; nil when none does (the client then takes the
    /// original, which no batch carries).
    package static func openingSize(sizes: [Int], covering: Int, width: Int?, height: Int?) -> Int? {
        sizes.first { RemotePhoto.shortSide(size: $0, width: width, height: height) >= covering }
    }

    /// A part's head as a server writes it: `PART index status length`, its header lines, a
    /// blank line. Header names and values must be printable ASCII (the caller's to ensure).
    package static func partHead(index: Int, status: Int, length: Int, headers: [(name: String, value: String)]) -> [UInt8] {
        var head = Array("PART \(index) \(status) \(length)\r\n".utf8)
        for (name, value) in headers { head += "\(name): \(value)\r\n".utf8 }
        head += "\r\n".utf8
        return head
    }
}

/// Why a batch response was not read to its end: the server broke the format or a limit.
package struct BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Reads a batch response as it streams in, handing out each part once it is whole. Trusts
/// nothing: a part for an item never asked for or already answered, a length past the limit, a
/// head that is not one, or bytes after the end stop the reading with the reason.
package struct BatchReader {
    /// One item's answer: its status (200, or an error with the reason in its headers), headers
    /// and body.
    package struct Part: Sendable, Equatable {
        package var index: Int
        package var status: Int
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]

        /// The value of the first header of that name, whatever its case.
        package func header(_ name: String) -> String? {
            let lower = name.lowercased()
            return headers.first { $0.name.lowercased() == lower }?.value
        }

        package static func == (a: Part, b: Part) -> Bool {
            a.index == b.index && a.status == b.status && a.body == b.body
                && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
        }
    }

    let items: Int
    let maxPartBytes: Int
    private var buffer: [UInt8] = []
    private var current: Part?
    private var remaining = 0
    /// Items answered so far.
    package private(set) var answered: Set<Int> = []
    /// The end was read: every part there will be has come.
    package private(set) var ended = false

    /// For a request of `items` items, each part's body at most `maxPartBytes`.
    package init(items: Int, maxPartBytes: Int) {
        self.items = items
        self.maxPartBytes = maxPartBytes
    }

    /// Why the reading stopped, once the server broke the format: nothing more is read.
    package private(set) var failure: BatchError?

    /// The parts these bytes complete, in the order they came, up to the first fault (then
    /// `failure` says what it was).
    package mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Part] {
        guard failure == nil else { return [] }
        var parts: [Part] = []
        do throws(BatchError) {
            try read(ArraySlice(bytes), into: &parts)
        } catch {
            failure = error
        }
        return parts
    }

    private mutating func read(_ bytes: ArraySlice<UInt8>, into parts: inout [Part]) throws(BatchError) {
        var input = bytes
        while true {
            if current != nil {
                let take = min(remaining, input.count)
                current!.body += input.prefix(take)
                input = input.dropFirst(take)
                remaining -= take
                guard remaining == 0 else { return }
                parts.append(current!)
                current = nil
                continue
            }
            if input.isEmpty && buffer.isEmpty { return }
            guard !ended else { throw BatchError("bytes after the end") }
            // A head is gathered until its blank line (or the end line) is all there.
            buffer += input
            input = []
            guard let length = headLength() else {
                if buffer.count > Batch.maxHeadBytes { throw BatchError("a part's head longer than \(Batch.maxHeadBytes) bytes") }
                return
            }
            let head = Array(buffer.prefix(length))
            input = buffer.dropFirst(length)
            buffer = []
            if head == Batch.end {
                ended = true
                continue
            }
            (current, remaining) = try readHead(head)
        }
    }

    /// The response's body ended: nil if it ended where it should, else why not.
    package func finish() -> BatchError? {
        if let failure { return failure }
        if ended { return nil }
        return BatchError(current != nil ? "a part cut short" : "no end")
    }

    /// The length of the head at the buffer's start, through its blank line (or the end line),
    /// once it is all there.
    private func headLength() -> Int? {
        if buffer.starts(with: Batch.end) { return Batch.end.count }
        guard buffer.count >= 4 else { return nil }
        for at in 0...(buffer.count - 4) where buffer[at] == 13 && buffer[at + 1] == 10 && buffer[at + 2] == 13 && buffer[at + 3] == 10 {
            return at + 4
        }
        return nil
    }

    /// A part's head, read and checked: the part without its body, and the body's length.
    private mutating func readHead(_ head: [UInt8]) throws(BatchError) -> (Part, Int) {
        // The same limit whether the head came whole or in pieces.
        guard head.count <= Batch.maxHeadBytes else { throw BatchError("a part's head longer than \(Batch.maxHeadBytes) bytes") }
        let lines = head.dropLast(4).split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        let fields = lines[0].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0].elementsEqual("PART".utf8) else { throw BatchError("not a part's head") }
        guard let index = BatchReader.number(fields[1]), index < items else { throw BatchError("a part for an item never asked for") }
        guard let status = BatchReader.number(fields[2]), (100...599).contains(status) else { throw BatchError("a part's status is not one") }
        guard let length = BatchReader.number(fields[3]) else { throw BatchError("a part's length is not one") }
        guard length <= maxPartBytes else { throw BatchError("a part of \(length) bytes, past the limit of \(maxPartBytes)") }
        guard answered.insert(index).inserted else { throw BatchError("two parts for one item") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 9 }) else { throw BatchError("a part's header line is not one") }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingWhitespace
            headers.append((name, String(value)))
        }
        var part = Part(index: index, status: status, headers: headers, body: [])
        part.body.reserveCapacity(length)
        return (part, length)
    }

    /// Plain decimal digits, at most 10 of them: nothing else is a number in a head.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}
