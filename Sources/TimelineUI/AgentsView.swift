import TimelineCore

/// The agents view (`A`): every agent with last seen, running / error / waiting counts and whether it takes
/// messages; `r` sends the selected agent a line of text (to its latest event's `reply_to`).
public struct AgentsView: Sendable, Equatable {
    public var agents: [AgentSummary] = []
    public var selected = 0
    public var loaded = false
    public init() {}

    public var selectedAgent: AgentSummary? { agents.indices.contains(selected) ? agents[selected] : nil }
}

/// How many agents the view loads.
let agentsViewLimit = 500

func openAgentsView(_ s: inout AppState) -> [Effect] {
    s.agentsView = AgentsView()
    return [.loadAgents(limit: agentsViewLimit)]
}

func applyAgents(_ s: inout AppState, _ agents: [AgentSummary]) -> [Effect] {
    guard var view = s.agentsView else { return [] }
    let keep = view.selectedAgent?.agentID
    view.agents = agents
    view.loaded = true
    view.selected = agents.firstIndex { $0.agentID == keep } ?? min(view.selected, max(0, agents.count - 1))
    s.agentsView = view
    return []
}

func reduceAgentsKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    guard var view = s.agentsView else { return [] }
    switch key {
    case .char("j"), .down: view.selected = min(view.selected + 1, max(0, view.agents.count - 1))
    case .char("k"), .up: view.selected = max(0, view.selected - 1)
    case .home, .char("g"): view.selected = 0
    case .end, .char("G"): view.selected = max(0, view.agents.count - 1)
    case .char("r"):
        guard let agent = view.selectedAgent else { return [] }
        guard let replyTo = agent.replyTo else {
            notice(&s, "\(TextWidth.safe(agent.agentID)) takes no messages: its latest event names no reply_to", error: true)
            return []
        }
        return openTextPrompt(&s, event: agent.latest, replyTo: replyTo)
    case .char("?"):
        s.helpOpen = true
        return []
    case .escape, .char("q"), .char("A"), .left, .char("h"):
        s.agentsView = nil
        return []
    default:
        return []
    }
    s.agentsView = view
    return []
}

/// The agents table in the list area.
func renderAgents(_ s: AppState, into screen: inout Screen) {
    guard let view = s.agentsView else { return }
    let width = screen.width
    screen.fill(x: 0, y: 1, width: width, height: s.listHeight, style: .plain)
    let columns = "  LAST SEEN  RUNNING  ERRORS  WAITING  MESSAGES"
    let agentWidth = max(8, width - TextWidth.of(columns) - 2)
    let heading = " " + TextWidth.pad("AGENTS · r message · Esc back", to: agentWidth) + columns
    screen.put(heading, x: 0, y: 1, style: Style(fg: .accent, bold: true), limit: width)
    guard view.loaded else {
        screen.put(" loading…", x: 0, y: 2, style: Style(fg: .muted))
        return
    }
    if view.agents.isEmpty { screen.put(" no agents yet", x: 0, y: 2, style: Style(fg: .muted)) }
    let visible = max(0, s.listHeight - 1)
    let top = max(0, view.selected - visible + 1)
    for (line, index) in (top..<min(view.agents.count, top + visible)).enumerated() {
        let agent = view.agents[index]
        let selected = index == view.selected
        let base = selected ? Style(bg: .selection, bold: true) : Style.plain
        let y = 2 + line
        screen.fill(x: 0, y: y, width: width, style: base)
        var x = 1
        x += screen.put(TextWidth.pad(TextWidth.truncate(TextWidth.safe(agent.agentID), to: agentWidth), to: agentWidth),
                        x: x, y: y, style: Style(fg: .accent, bg: base.bg, bold: selected))
        func cell(_ text: String, _ w: Int, _ style: Style) {
            x += 2
            x += screen.put(TextWidth.padLeft(text, to: w), x: x, y: y, style: style, limit: w)
        }
        cell(Times.ago(agent.latest.timestampMicros, s), 9, Style(fg: .muted, bg: base.bg))
        cell("\(agent.running)", 7, Style(fg: agent.running > 0 ? .inProgress : .muted, bg: base.bg))
        cell("\(agent.errors)", 6, Style(fg: agent.errors > 0 ? .error : .muted, bg: base.bg, bold: agent.errors > 0))
        cell("\(agent.waiting)", 7, Style(fg: agent.waiting > 0 ? .needsInput : .muted, bg: base.bg, bold: agent.waiting > 0))
        x += 2
        screen.put(agent.replyTo == nil ? "no" : "yes", x: x, y: y,
                   style: Style(fg: agent.replyTo == nil ? .muted : .success, bg: base.bg), limit: max(0, width - x))
    }
}
