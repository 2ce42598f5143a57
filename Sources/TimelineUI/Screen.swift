/// One terminal cell: a single grapheme and its style. A wide (2-column) grapheme occupies its cell
/// with `width == 2` and the next cell is a continuation (`width == 0`) that draws nothing.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var width: UInt8
    public var style: Style

    public init(character: Character = " ", width: UInt8 = 1, style: Style = .plain) {
        self.character = character
        self.width = width
        self.style = style
    }

    public static let blank = Cell()
    public var isContinuation: Bool { width == 0 }
}

/// A grid of cells produced by `render` and drawn (as a diff) by the terminal backend.
public struct Screen: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Fills a rectangle with blanks of `style`.
    public mutating func fill(x: Int = 0, y: Int, width w: Int, height h: Int = 1, style: Style) {
        for row in max(0, y)..<min(height, y + h) {
            for col in max(0, x)..<min(width, x + w) { self[col, row] = Cell(style: style) }
        }
    }

    /// Writes already-sanitized text at (x, y), clipped to `limit` columns (and the screen edge).
    /// A wide grapheme that would not fit is replaced by a space. Returns the columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style, limit: Int = .max) -> Int {
        put(text, x: x, y: y, limit: limit) { _ in style }
    }

    /// Like `put(_:x:y:style:limit:)` with a per-grapheme style (`index` counts graphemes).
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, limit: Int = .max,
                             style: (Int) -> Style) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let end = limit >= width ? width : min(width, x + max(0, limit))
        var col = x
        for (index, ch) in text.enumerated() {
            let w = TextWidth.of(ch)
            if w == 0 { continue }
            if col + w > end {
                if col < end { self[col, y] = Cell(character: " ", width: 1, style: style(index)); col += 1 }
                break
            }
            if col >= 0 {
                clearWideNeighbours(x: col, y: y, span: w)
                self[col, y] = Cell(character: ch, width: UInt8(w), style: style(index))
                if w == 2 { self[col + 1, y] = Cell(character: " ", width: 0, style: style(index)) }
            }
            col += w
        }
        return col - x
    }

    /// Keeps the grid consistent when a write lands on half of an existing wide grapheme.
    private mutating func clearWideNeighbours(x: Int, y: Int, span: Int) {
        if self[x, y].isContinuation, x > 0 { self[x - 1, y] = Cell(style: self[x - 1, y].style) }
        let after = x + span
        if after < width, self[after, y].isContinuation { self[after, y] = Cell(style: self[after, y].style) }
    }

    /// One line as plain text (continuation cells omitted), trailing spaces kept.
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<width where !self[x, y].isContinuation { s.append(self[x, y].character) }
        return s
    }
}
