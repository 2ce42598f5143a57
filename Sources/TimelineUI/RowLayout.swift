/// Column widths of a timeline row for a given pane width (narrow panes drop columns).
struct RowLayout {
    let width: Int
    let time: Int
    let agent: Int
    let category: Int
    let progress: Int

    init(width: Int, absoluteTime: Bool) {
        self.width = width
        time = absoluteTime ? (width >= 110 ? 19 : 11) : 4
        agent = width >= 110 ? 16 : width >= 76 ? 12 : width >= 52 ? 9 : 0
        category = width >= 110 ? 14 : width >= 86 ? 10 : 0
        progress = width >= 60 ? 11 : 5
    }

    /// Columns before the title: space, glyph, space, time, two spaces.
    var titleStart: Int { 3 + time + 2 + (agent > 0 ? agent + 2 : 0) }

    /// Title columns on a row with or without the progress column.
    func titleWidth(withProgress: Bool) -> Int {
        let right = (category > 0 ? category + 2 : 0) + (withProgress ? progress + 2 : 0) + 1
        return max(0, width - titleStart - right)
    }
}
