/// A rectangle of cells: what a picture covers, what a panel takes.
package struct CellRect: Equatable, Hashable, Sendable {
    package var row: Int, column: Int, columns: Int, rows: Int

    package init(row: Int, column: Int, columns: Int, rows: Int) {
        self.row = row; self.column = column; self.columns = columns; self.rows = rows
    }

    var isEmpty: Bool { columns <= 0 || rows <= 0 }

    /// What is left of this rectangle once `holes` are taken out, as rectangles: row by row the
    /// cells left, runs of rows that leave the same columns joined into one. A tile under the
    /// corner of a panel becomes two pieces: its left part beside the panel, its full width below.
    package func subtracting(_ holes: [CellRect]) -> [CellRect] {
        let holes = holes.filter { !$0.isEmpty }
        guard !isEmpty else { return [] }
        guard !holes.isEmpty else { return [self] }
        var result: [CellRect] = []
        var open: [CellRect] = []
        for y in row..<(row + rows) {
            var spans: [(Int, Int)] = [(column, column + columns)]
            for hole in holes where y >= hole.row && y < hole.row + hole.rows {
                spans = spans.flatMap { span -> [(Int, Int)] in
                    let cut = (max(span.0, hole.column), min(span.1, hole.column + hole.columns))
                    guard cut.0 < cut.1 else { return [span] }
                    return [(span.0, cut.0), (cut.1, span.1)].filter { $0.0 < $0.1 }
                }
            }
            let same = spans.count == open.count && zip(spans, open).allSatisfy { $0.0 == $1.column && $0.1 == $1.column + $1.columns }
            if same {
                for i in open.indices { open[i].rows += 1 }
            } else {
                result += open
                open = spans.map { CellRect(row: y, column: $0.0, columns: $0.1 - $0.0, rows: 1) }
            }
        }
        return result + open
    }
}
