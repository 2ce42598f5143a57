import Foundation
import TimelineCore

/// opencode, through the plugin `timeline hooks install opencode` writes: it passes each event as
/// `{"type", "sessionID", "directory", …}` on stdin: `session.idle` (done), `session.error` (failed),
/// `permission.asked`/`permission.updated` (waiting), `tool.execute.before`/`after` with `tool`, `args`,
/// `title`, `output`, and `todo.updated` with `todos` (steps).
public enum OpencodeHooks {
    public static func report(_ input: HookInput, options: HookOptions) -> HookReport? {
        guard let session = input.string("sessionID"), let type = input.string("type") else { return nil }
        let cwd = input.string("directory")
        let properties = input.object("properties")
        let make = ReportMaker(session: session, cwd: cwd)
        switch type {
        case "tool.execute.before":
            let tool = ToolSummary.describe(tool: input.string("tool") ?? "tool", input: input.object("args"), cwd: cwd)
            return make(tool, input.json("args") ?? "", .inProgress, step: true)
        case "tool.execute.after":
            let tool = ToolSummary.describe(tool: input.string("tool") ?? "tool", input: input.object("args"), cwd: cwd)
            return make("Finished \(tool)", input.string("output") ?? input.string("title") ?? "", .inProgress, step: true)
        case "todo.updated":
            let todos = (properties?.array("todos") ?? input.array("todos") ?? []).compactMap { $0 as? [String: Any] }
            let lines = todos.map { todo in
                "[\((todo["status"] as? String) ?? "pending")] \((todo["content"] as? String) ?? "")"
            }
            let done = todos.filter { ($0["status"] as? String) == "completed" }.count
            return make("To-do list: \(done) of \(todos.count) done", lines.joined(separator: "\n"), .inProgress, step: true)
        case "permission.asked", "permission.updated":
            let patterns = (properties?.array("patterns") ?? []).compactMap { $0 as? String }
            let kind = properties?.string(["permission", "type"])
            let title = properties?.string("title") ?? kind.map { ([$0] + patterns.prefix(1)).joined(separator: " ") } ?? "a permission"
            return make("Waiting for you: \(TextCut.firstLine(title))",
                        properties.flatMap { $0.json("patterns") ?? $0.json("pattern") } ?? "", .needsInput)
        case "session.idle":
            return make("Done", "", .success)
        case "session.error":
            let error = properties?.object("error")
            let name = error?.string("name") ?? "error"
            let message = error?.object("data")?.string("message") ?? error?.string("message") ?? ""
            return make("Failed: \(ClaudeHooks.phrase(name))", message, .error)
        default:
            return make(type, "", .info, step: true)
        }
    }

    /// The plugin file: forwards opencode's events to `timeline hook opencode` without waiting for it; for
    /// `permission.asked` it reads the hook's decision (`{"response": "once"|"always"|"reject"}`) and gives
    /// it to opencode's permission API. No decision: opencode's own prompt stays.
    public static func plugin(command: [String]) -> String {
        let quoted = command.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        return """
            // Reports this opencode session to the timeline. Written by `timeline hooks install opencode`;
            // `timeline hooks uninstall opencode` removes it.
            import { spawn } from "node:child_process";

            const COMMAND = [\(quoted.joined(separator: ", "))];
            const FORWARDED = ["session.idle", "session.error", "permission.asked", "permission.updated", "todo.updated"];
            const RESPONSES = ["once", "always", "reject"];

            function report(payload) {
              try {
                const child = spawn(COMMAND[0], COMMAND.slice(1), { stdio: ["pipe", "ignore", "ignore"], detached: true });
                child.on("error", () => {});
                child.stdin.on("error", () => {});
                child.stdin.end(JSON.stringify(payload));
                child.unref();
              } catch {}
            }

            // A permission prompt: the hook asks it on the timeline and prints the answer, if one came.
            function ask(payload, respond) {
              try {
                const child = spawn(COMMAND[0], COMMAND.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
                let out = "";
                child.on("error", () => {});
                child.stdin.on("error", () => {});
                child.stdout.on("data", (chunk) => { out += chunk; });
                child.on("close", () => {
                  let decision;
                  try { decision = JSON.parse(out); } catch { return; }
                  if (decision && RESPONSES.includes(decision.response)) {
                    Promise.resolve().then(() => respond(decision.response)).catch(() => {});
                  }
                });
                child.stdin.end(JSON.stringify(payload));
              } catch {}
            }

            export const TimelinePlugin = async ({ directory, client }) => ({
              event: async ({ event }) => {
                if (!FORWARDED.includes(event.type)) return;
                const properties = event.properties ?? {};
                const payload = { type: event.type, sessionID: properties.sessionID ?? properties.info?.id, directory, properties };
                if (event.type === "permission.asked" && properties.id && properties.sessionID) {
                  const request = { path: { id: properties.sessionID, permissionID: properties.id }, body: { response: undefined } };
                  ask(payload, (response) => {
                    request.body.response = response;
                    return client.permission?.respond ? client.permission.respond(request)
                                                      : client.postSessionIdPermissionsPermissionId(request);
                  });
                  return;
                }
                report(payload);
              },
              "tool.execute.before": async (input, output) => {
                report({ type: "tool.execute.before", sessionID: input.sessionID, directory, tool: input.tool, args: output.args });
              },
              "tool.execute.after": async (input, output) => {
                report({ type: "tool.execute.after", sessionID: input.sessionID, directory, tool: input.tool,
                         title: output.title, output: output.output });
              },
            });

            """
    }
}
