import TimelineCore

/// The `:` command line in the status bar.
func renderCommandLine(_ line: String, into screen: inout Screen, y: Int) {
    let hint = ":save NAME · :view NAME · ⏎ run  Esc cancel "
    var text = TextWidth.safe(line)
    let room = max(4, screen.width - TextWidth.of(hint) - 3)
    while TextWidth.of(text) > room - 2, !text.isEmpty { text.removeFirst() }
    var x = screen.put(":", x: 0, y: y, style: Style(fg: .accent, bg: .statusBar, bold: true))
    x += screen.put(text, x: x, y: y, style: Style(bg: .statusBar, bold: true))
    screen.put(" ", x: x, y: y, style: Style(reverse: true))
    let hintWidth = TextWidth.of(hint)
    if hintWidth + x + 2 <= screen.width {
        screen.put(hint, x: screen.width - hintWidth, y: y, style: Style(fg: .muted, bg: .statusBar))
    }
}

/// The `v` picker: a centered box listing the named views (name and query), the selected one highlighted.
func renderViewPicker(_ state: AppState, into screen: inout Screen) {
    guard let selected = state.viewPicker, !state.views.isEmpty else { return }
    let nameWidth = min(20, state.views.map { TextWidth.of(TextWidth.safe($0.name)) }.max() ?? 4)
    let innerWidth = min(screen.width - 2, max(40, min(80, nameWidth + 2 + (state.views.map { TextWidth.of($0.query) }.max() ?? 0) + 2)))
    let visible = min(state.views.count, max(1, screen.height - 4))
    let innerHeight = visible
    guard innerWidth > 10, screen.height >= 4 else { return }
    let first = min(max(0, selected - visible + 1), max(0, state.views.count - visible))
    let box = OverlayBox(innerWidth: innerWidth, innerHeight: innerHeight, centeredOn: screen)
    let (x0, y0) = (box.x0, box.y0)
    box.draw(title: " Views · ⏎ apply  Esc close ", style: Style(fg: .accent, bold: true), into: &screen)
    for line in 0..<visible {
        let index = first + line
        let view = state.views[index]
        let isSelected = index == selected
        let style = isSelected ? Style(bg: .selection, bold: true) : Style.plain
        let y = y0 + 1 + line
        screen.fill(x: x0 + 1, y: y, width: innerWidth, style: style)
        let name = TextWidth.truncate(TextWidth.safe(view.name), to: nameWidth)
        screen.put(name, x: x0 + 2, y: y, style: Style(fg: .accent, bg: style.bg, bold: true), limit: nameWidth)
        let queryX = x0 + 2 + nameWidth + 2
        screen.put(TextWidth.truncate(TextWidth.safe(view.query), to: max(0, x0 + innerWidth - queryX)), x: queryX, y: y,
                   style: style, limit: max(0, x0 + innerWidth - queryX + 1))
        if state.activeView == view.name {
            screen.put("•", x: x0 + innerWidth, y: y, style: Style(fg: .highlight, bg: style.bg, bold: true))
        }
    }
}
