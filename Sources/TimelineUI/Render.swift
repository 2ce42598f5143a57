/// Draws the whole screen from the state. Pure: same state and size, same cells.
public func render(_ state: AppState, width: Int, height: Int) -> Screen {
    var screen = Screen(width: width, height: height)
    guard width > 0, height > 0 else { return screen }
    var s = state
    s.width = width
    s.height = height
    clampSelection(&s)
    renderHeader(s, into: &screen)
    if height >= 3 {
        if s.agentsView != nil {
            renderAgents(s, into: &screen)
        } else if s.detail != nil && !s.splitDetail {
            renderDetail(s, into: &screen)
        } else {
            renderList(s, into: &screen, x: 0, width: Layout.listWidth(width: width, split: s.splitDetail))
            if s.splitDetail { renderDetail(s, into: &screen) }
        }
    }
    renderStatusBar(s, into: &screen)
    if s.viewPicker != nil { renderViewPicker(s, into: &screen) }
    if s.pollerMessageOpen { renderPollerMessage(s, into: &screen) }
    if s.rejected.open { renderRejected(s, into: &screen) }
    if s.helpOpen { renderHelp(s, into: &screen) }
    if s.asciiOnly { AsciiFallback.apply(to: &screen) }
    return screen
}
