import TimelineUI

/// What the TUI asks of the application beyond reading the store: marks, views, exports. The `timeline`
/// command implements it (database, config file, current directory); the runtime calls it off the input path.
public protocol TimelineActions: Sendable {
    /// Stores a task's mark.
    func setMark(taskID: String, marked: Bool) throws
    /// Writes a named view to the config file; returns where, for the status bar.
    func saveView(_ view: NamedQuery) throws -> String
    /// Remembers the view in use (nil: none) for the next start.
    func rememberView(name: String?) throws
    /// Keeps the `/` prompt's recalled searches (oldest first, already bounded) for the next start.
    func rememberSearches(_ history: [String]) throws
    /// Keeps the pinned task ids (newest pin first) for the next start.
    func setPins(_ taskIDs: [String]) throws
    /// Writes a task's history as Markdown into the current directory; returns the file's path.
    func exportHistory(taskID: String) throws -> String
}

/// Runs the action effects; every other effect is not an action (nil).
public enum ActionExecutor {
    /// Whether `effect` is an action (runs in order, never superseded).
    public static func isAction(_ effect: Effect) -> Bool {
        switch effect {
        case .setMark, .setPins, .saveView, .rememberView, .rememberSearches, .exportHistory: true
        default: false
        }
    }

    /// Performs an action; the input reports what happened (errors in words).
    public static func run(_ effect: Effect, with actions: TimelineActions) -> Input? {
        do {
            switch effect {
            case .setMark(let taskID, let marked):
                try actions.setMark(taskID: taskID, marked: marked)
                return nil
            case .saveView(let view):
                return .actionFinished("saved view \(view.name) in \(try actions.saveView(view))")
            case .rememberView(let name):
                try actions.rememberView(name: name)
                return nil
            case .rememberSearches(let history):
                try actions.rememberSearches(history)
                return nil
            case .setPins(let taskIDs):
                try actions.setPins(taskIDs)
                return nil
            case .exportHistory(let taskID):
                return .actionFinished("exported \(taskID) to \(try actions.exportHistory(taskID: taskID))")
            default:
                return nil
            }
        } catch {
            return .actionFinished("failed: \(error)")
        }
    }
}
