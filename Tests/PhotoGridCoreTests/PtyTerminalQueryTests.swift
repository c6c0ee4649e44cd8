import Testing
import PhotoGridTestSupport

/// The benchmarks' terminal answers a peer's queries as they come: each query found once, where
/// a read cuts it too, and never again from the bytes kept between reads.
@Suite struct PtyTerminalQueryTests {
    let queries: [[UInt8]] = ["\u{1B}[c", "\u{1B}[16t", "\u{1B}[?1;1;0S"].map { Array($0.utf8) }

    /// Feeds `reads` one after another, as the reader does; the queries found at each read.
    func found(_ reads: [String]) -> [[Int]] {
        var tail: [UInt8] = []
        return reads.map { text in
            var read = Array(text.utf8)
            let count = read.count
            read += [UInt8](repeating: 0x41, count: 16)   // the reader's buffer is larger than a read
            defer { tail = PtyTerminal.tail(tail, read, count) }
            return PtyTerminal.startsAnEscape(of: queries, tail: tail, read: read, count: count).sorted()
        }
    }

    @Test func findsQueriesAmongPicturesOnce() {
        #expect(found(["abc\u{1B}[16tdef\u{1B}[c", "\u{1B}_Ga=T;AAAA\u{1B}\\"]) == [[0, 1], []])
        // The same query twice in one read is answered once; in the next read, again.
        #expect(found(["\u{1B}[c x \u{1B}[c", "\u{1B}[c"]) == [[0], [0]])
        // A bare escape, an escape at the end, and a query's first bytes are not queries.
        #expect(found(["\u{1B}", "[16", "x\u{1B}[?1;1;", "1S"]) == [[], [], [], []])
    }

    @Test func findsAQueryCutBetweenReads() {
        #expect(found(["pictures\u{1B}[", "16t"]) == [[], [1]])
        #expect(found(["\u{1B}", "[?1;1;0", "S more"]) == [[], [], [2]])
        // A query that ended a read is not found again in the bytes kept from it.
        #expect(found(["xy\u{1B}[16t", "z", "\u{1B}[c"]) == [[1], [], [0]])
        #expect(found(["\u{1B}[c", "ab"]) == [[0], []])
    }
}
