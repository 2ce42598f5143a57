import Foundation
import StrictJSON

/// The last assistant text in a Claude Code transcript (JSON lines): what `Stop` reports as "Done: …" when
/// the hook payload has no `last_assistant_message`. Reads only the file's tail.
public enum ClaudeTranscript {
    /// The most bytes read from the end of the transcript.
    static let tailBytes = 256 * 1024

    public static func lastAssistantText(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > UInt64(tailBytes) ? size - UInt64(tailBytes) : 0)
        guard let data = try? handle.readToEnd() else { return nil }
        for line in data.split(separator: UInt8(ascii: "\n")).reversed() {
            if let text = assistantText(Array(line)) { return text }
        }
        return nil
    }

    /// The text parts of one transcript line when it is an assistant message.
    static func assistantText(_ line: [UInt8]) -> String? {
        guard let entry = JSONReader.object(from: line), entry["type"] as? String == "assistant",
              let message = entry["message"] as? [String: Any], let content = message["content"] as? [Any] else { return nil }
        let texts = content.compactMap { part -> String? in
            guard let part = part as? [String: Any], part["type"] as? String == "text" else { return nil }
            return part["text"] as? String
        }
        let text = texts.joined(separator: "\n")
        return text.isEmpty ? nil : text
    }
}
