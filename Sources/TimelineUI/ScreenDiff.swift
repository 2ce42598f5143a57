/// Consecutive cells of one line to draw, left to right from column `x`. A run never starts on a
/// continuation cell, so drawing its cells in order (skipping continuations) repaints wide graphemes whole.
public struct ScreenRun: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var cells: [Cell]

    public init(x: Int, y: Int, cells: [Cell]) {
        self.x = x
        self.y = y
        self.cells = cells
    }
}

extension Screen {
    /// True when `previous` cannot be diffed against (there is none, or its size differs): `diff` then
    /// returns every line, and a terminal should clear first.
    public func redrawsFully(from previous: Screen?) -> Bool {
        previous?.width != width || previous?.height != height
    }

    /// The runs that turn `previous` (what the terminal shows) into this screen: every line in full when
    /// there is no previous screen or its size differs, else only the changed cells. A changed half of a
    /// wide grapheme takes the whole grapheme with it, since a terminal draws it as one.
    public func diff(from previous: Screen?) -> [ScreenRun] {
        guard let previous, !redrawsFully(from: previous) else {
            guard width > 0 else { return [] }
            return (0..<height).map { y in ScreenRun(x: 0, y: y, cells: Array(cells[y * width..<(y + 1) * width])) }
        }
        var runs: [ScreenRun] = []
        for y in 0..<height {
            var marked = [Bool](repeating: false, count: width)
            for x in 0..<width where previous[x, y] != self[x, y] {
                marked[x] = true
                if self[x, y].isContinuation, x > 0 { marked[x - 1] = true }
                if self[x, y].width == 2, x + 1 < width { marked[x + 1] = true }
            }
            var x = 0
            while x < width {
                guard marked[x] else { x += 1; continue }
                let start = x
                while x < width && marked[x] { x += 1 }
                runs.append(ScreenRun(x: start, y: y, cells: Array(cells[y * width + start..<y * width + x])))
            }
        }
        return runs
    }
}
