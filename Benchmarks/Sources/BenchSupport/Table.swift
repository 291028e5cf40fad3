/// A results table printed as Markdown, columns padded for reading in a terminal.
public struct Table {
    public var columns: [String]
    public var rows: [[String]] = []

    public init(columns: [String]) { self.columns = columns }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public var markdown: String {
        let widths = columns.indices.map { column in
            ([columns] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(columns), rule] + rows.map(line)).joined(separator: "\n")
    }
}
