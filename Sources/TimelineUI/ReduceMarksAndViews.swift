import TimelineCore

/// `m` marks, `'` next mark, `x` export, `:save` / `:view` commands and the `v` view picker.

/// Toggles the mark of the selected task (stored by the runtime; shown at once).
func toggleMark(_ s: inout AppState) -> [Effect] {
    guard let row = s.selectedRow else { return [] }
    let marked = !s.marks.contains(row.taskID)
    if marked { s.marks.insert(row.taskID) } else { s.marks.remove(row.taskID) }
    var effects: [Effect] = [.setMark(taskID: row.taskID, marked: marked)]
    // A list or highlight narrowed by is:marked changes with the marks.
    if s.listQuery.marked != nil || s.matchQuery?.marked != nil {
        s.generation += 1
        effects += [windowEffect(&s), countsEffect(s)].compactMap { $0 }
    }
    return effects
}

/// `'`: the next marked task below the selection (wrapping), within the listed rows.
func jumpToNextMark(_ s: inout AppState) -> [Effect] {
    guard !s.marks.isEmpty else {
        s.notice = "no marked tasks: m marks the selected one"
        return []
    }
    var q = s.listQuery
    q.marked = true
    return [findEffect(s, query: q, olderFirst: true)].compactMap { $0 }
}

/// `x`: the selected task's history to a Markdown file in the current directory.
func exportSelected(_ s: inout AppState) -> [Effect] {
    guard let taskID = s.detail?.taskID ?? s.selectedRow?.taskID else { return [] }
    s.notice = "exporting…"
    return [.exportHistory(taskID: taskID)]
}

/// Applies a named view: its query becomes the filter, and the runtime remembers it for the next start.
public func applyView(_ s: inout AppState, _ view: NamedQuery) -> [Effect] {
    s.activeView = view.name
    s.search.text = view.query
    s.search.kind = .filter
    s.search.promptOpen = false
    return searchChanged(&s) + [.rememberView(name: view.name)]
}

/// A search edited or cleared away from the active view's query leaves the view (and the next start
/// opens without it).
func leaveViewIfEdited(_ s: inout AppState) -> [Effect] {
    guard let name = s.activeView, s.views.first(where: { $0.name == name })?.query != s.search.text else { return [] }
    s.activeView = nil
    return [.rememberView(name: nil)]
}

/// Keys while the `:` command line is open.
func reduceCommandKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    guard var line = s.commandLine else { return [] }
    switch key {
    case .escape:
        s.commandLine = nil
    case .backspace:
        if line.isEmpty { s.commandLine = nil } else { line.removeLast(); s.commandLine = line }
    case .ctrl("u"):
        s.commandLine = ""
    case .enter:
        s.commandLine = nil
        return runCommand(&s, line)
    case .char(let c):
        guard line.count < 200 else { return [] }
        s.commandLine = line + String(c)
    default:
        break
    }
    return []
}

/// `save NAME`, `view NAME` (`view` alone opens the picker); anything else is explained in the status bar.
func runCommand(_ s: inout AppState, _ line: String) -> [Effect] {
    let words = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
    let verb = words.first ?? ""
    let name = words.count > 1 ? words[1] : ""
    switch verb {
    case "q", "quit", "q!", "qa":
        s.quitRequested = true
        return [.quit]
    case "save", "w":
        guard NamedQuery.isValidName(name) else {
            s.notice = ":save NAME — a name of letters, digits, - and _"
            return []
        }
        guard !s.search.text.trimmingCharacters(in: .whitespaces).isEmpty else {
            s.notice = "nothing to save: search with / first"
            return []
        }
        if let problem = s.search.query.problems.first {
            s.notice = "not saved: \(problem)"
            return []
        }
        let view = NamedQuery(name: name, query: s.search.text)
        s.views.removeAll { $0.name == name }
        s.views.append(view)
        s.views.sort { $0.name < $1.name }
        s.activeView = name
        s.notice = "saving view \(name)…"
        return [.saveView(view), .rememberView(name: name)]
    case "view", "v":
        if name.isEmpty { return openViewPicker(&s) }
        guard let view = s.views.first(where: { $0.name == name }) else {
            s.notice = "no view \(TextWidth.safe(name))" + (s.views.isEmpty ? ": :save NAME saves the current search"
                                                          : "; views: " + s.views.map(\.name).joined(separator: ", "))
            return []
        }
        return applyView(&s, view)
    case "":
        return []
    default:
        s.notice = "unknown command :\(TextWidth.safe(verb)) — :save NAME, :view NAME"
        return []
    }
}

/// `v`: the picker over the named views (the active one selected).
func openViewPicker(_ s: inout AppState) -> [Effect] {
    guard !s.views.isEmpty else {
        s.notice = "no views yet: search with /, then :save NAME (or add [views.NAME] to the config file)"
        return []
    }
    s.viewPicker = s.views.firstIndex { $0.name == s.activeView } ?? 0
    return []
}

/// Keys while the view picker is open.
func reducePickerKey(_ s: inout AppState, _ key: Key) -> [Effect] {
    guard let index = s.viewPicker else { return [] }
    switch key {
    case .char("j"), .down: s.viewPicker = min(index + 1, s.views.count - 1)
    case .char("k"), .up: s.viewPicker = max(index - 1, 0)
    case .escape, .char("q"), .char("v"): s.viewPicker = nil
    case .enter:
        s.viewPicker = nil
        guard s.views.indices.contains(index) else { return [] }
        return applyView(&s, s.views[index])
    default: break
    }
    return []
}

extension NamedQuery {
    /// View names are TOML bare keys: letters, digits, `-` and `_`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" }
    }
}
