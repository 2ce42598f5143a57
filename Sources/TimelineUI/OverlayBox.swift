/// A framed box centered on the screen, drawn over the view: the help, the poller message and the view
/// picker. The frame is one cell wide around `innerWidth` × `innerHeight` cells, everything inside is
/// cleared, and the title sits on the top edge from the third column, one `─` at least on either side.
struct OverlayBox {
    /// The frame's top-left corner.
    let x0: Int
    let y0: Int
    let innerWidth: Int
    let innerHeight: Int

    init(innerWidth: Int, innerHeight: Int, centeredOn screen: Screen) {
        self.innerWidth = innerWidth
        self.innerHeight = innerHeight
        x0 = max(0, (screen.width - innerWidth - 2) / 2)
        y0 = max(0, (screen.height - innerHeight - 2) / 2)
    }

    /// The most columns a title can take without touching the corners.
    var titleRoom: Int { innerWidth - 2 }

    /// Clears the box and draws its frame and title in `style`.
    func draw(title: String, style: Style, into screen: inout Screen) {
        screen.fill(x: x0, y: y0, width: innerWidth + 2, height: innerHeight + 2, style: .plain)
        screen.put("┌" + String(repeating: "─", count: innerWidth) + "┐", x: x0, y: y0, style: style)
        screen.put("└" + String(repeating: "─", count: innerWidth) + "┘", x: x0, y: y0 + innerHeight + 1, style: style)
        for y in stride(from: 1, through: innerHeight, by: 1) {
            screen.put("│", x: x0, y: y0 + y, style: style)
            screen.put("│", x: x0 + innerWidth + 1, y: y0 + y, style: style)
        }
        screen.put(title, x: x0 + 2, y: y0, style: style, limit: titleRoom)
    }
}
