import SharedRules
import StrictJSON
/// How a human can answer an event: its buttons (`actions`) and where replies go (`reply_to`).
/// Validated by `EventParser` (`InteractionRules`); read back from an event's raw JSON with `interaction`.
public struct EventInteraction: Sendable, Equatable {
    public var actions: [EventAction]
    /// The SQS queue URL the viewer sends replies and messages to.
    public var replyTo: String?

    public init(actions: [EventAction] = [], replyTo: String? = nil) {
        self.actions = actions
        self.replyTo = replyTo
    }

    /// True when there is anything to answer with.
    public var isEmpty: Bool { actions.isEmpty && replyTo == nil }
}

/// One button of an event.
public struct EventAction: Sendable, Equatable {
    /// How a button is drawn.
    public enum Style: String, Sendable, CaseIterable { case `default`, primary, danger }

    /// 1–64 characters of `[a-z0-9_.-]`, unique in its event; what the agent receives.
    public var id: String
    /// At most 40 display columns (raw: sanitize before drawing).
    public var label: String
    public var style: Style
    /// A webhook for this action (`https://…`, or `http://` to loopback); nil: reply over SQS.
    public var url: String?

    public init(id: String, label: String, style: Style = .default, url: String? = nil) {
        self.id = id
        self.label = label
        self.style = style
        self.url = url
    }
}

extension Event {
    /// The event's actions and reply queue, read from its raw JSON (accepted events always have valid ones).
    public var interaction: EventInteraction {
        guard let members = EventParser.members(Array(rawJSON.utf8)) else { return EventInteraction() }
        return (try? InteractionRules.interaction(members)) ?? EventInteraction()
    }
}

/// The rules for `actions` and `reply_to`. `agent-tool/timeline_event.py` applies the same with the same reasons.
enum InteractionRules {
    static let maxActions = 6
    static let idCharacters = "abcdefghijklmnopqrstuvwxyz0123456789_.-"
    static let maxIDLength = 64
    static let maxLabelColumns = 40
    /// Labels are also capped in bytes, so zero-width characters cannot make one huge.
    static let maxLabelBytes = 256
    static let maxURLBytes = 2_048

    /// Reads `actions` and `reply_to` from a top-level object's members (absent: none).
    static func interaction(_ members: [(key: String, value: JSONValueTree)]) throws(EventRejection) -> EventInteraction {
        func member(_ name: String) -> JSONValueTree? { members.first(where: { $0.key == name })?.value }
        var result = EventInteraction()
        if let value = member("actions") { result.actions = try actions(value) }
        if let value = member("reply_to") { result.replyTo = try replyTo(value) }
        return result
    }

    static func actions(_ value: JSONValueTree) throws(EventRejection) -> [EventAction] {
        guard case .array(let items) = value else {
            throw EventRejection("field \"actions\" must be an array of 1-\(maxActions) actions, got \(value.kindDescription)")
        }
        guard (1...maxActions).contains(items.count) else {
            throw EventRejection("field \"actions\" has \(items.count) actions, must have 1-\(maxActions)")
        }
        var seen: Set<String> = []
        var out: [EventAction] = []
        for (index, item) in items.enumerated() {
            let path = "actions[\(index)]"
            guard case .object(let fields) = item else {
                throw EventRejection("field \"\(path)\" must be an object, got \(item.kindDescription)")
            }
            func field(_ name: String) -> JSONValueTree? { fields.first(where: { $0.key == name })?.value }
            guard let idValue = field("id") else { throw EventRejection("missing required field \"\(path).id\"") }
            let id = try string("\(path).id", idValue)
            guard (1...maxIDLength).contains(id.unicodeScalars.count),
                  id.unicodeScalars.allSatisfy({ idCharacters.unicodeScalars.contains($0) }) else {
                throw EventRejection("field \"\(path).id\" must be 1-\(maxIDLength) characters of a-z 0-9 _ . -, got \(ReasonText.quote(id))")
            }
            guard seen.insert(id).inserted else {
                throw EventRejection("field \"\(path).id\" repeats the action id \(ReasonText.quote(id))")
            }
            guard let labelValue = field("label") else { throw EventRejection("missing required field \"\(path).label\"") }
            let label = try string("\(path).label", labelValue)
            if label.utf8.count > maxLabelBytes {
                throw EventRejection("field \"\(path).label\" is \(label.utf8.count) bytes, longer than the \(maxLabelBytes)-byte limit")
            }
            if ReasonText.isBlank(label) { throw EventRejection("field \"\(path).label\" is empty or only whitespace") }
            let columns = labelColumns(label)
            if columns > maxLabelColumns {
                throw EventRejection("field \"\(path).label\" is \(columns) columns wide, wider than the \(maxLabelColumns)-column limit")
            }
            var style = EventAction.Style.default
            if let styleValue = field("style") {
                let text = try string("\(path).style", styleValue)
                guard let known = EventAction.Style(rawValue: text) else {
                    throw EventRejection("field \"\(path).style\" is \(ReasonText.quote(text)), not one of default, primary, danger")
                }
                style = known
            }
            var url: String?
            if let urlValue = field("url") {
                let text = try string("\(path).url", urlValue)
                guard text.utf8.count <= maxURLBytes, WebURL.isAllowedWebhook(text) else {
                    throw EventRejection("field \"\(path).url\" must be an https:// URL (http:// only to 127.0.0.1, ::1 or localhost), got \(ReasonText.quote(text))")
                }
                // Private ranges depend on the viewer's `webhook_allow_private`: checked again when sending.
                if let refusal = WebURL.webhookHostRefusal(text, allowPrivate: true) {
                    throw EventRejection("field \"\(path).url\" names a host webhooks may not reach (\(refusal)), got \(ReasonText.quote(text))")
                }
                url = text
            }
            out.append(EventAction(id: id, label: label, style: style, url: url))
        }
        return out
    }

    static func replyTo(_ value: JSONValueTree) throws(EventRejection) -> String {
        let text = try string("reply_to", value)
        guard text.utf8.count <= maxURLBytes, QueueURLShape.isQueueURL(text) else {
            throw EventRejection("field \"reply_to\" must be an SQS queue URL like https://sqs.eu-west-1.amazonaws.com/123456789012/agent-replies, got \(ReasonText.quote(text))")
        }
        return text
    }

    private static func string(_ name: String, _ value: JSONValueTree) throws(EventRejection) -> String {
        guard case .string(let text) = value else {
            throw EventRejection("field \"\(name)\" must be a string, got \(value.kindDescription)")
        }
        if text.unicodeScalars.contains(where: { $0.value == 0 }) {
            throw EventRejection("field \"\(name)\" contains a NUL character")
        }
        return text
    }

    /// Columns a label takes, scalar by scalar (the Python mirror uses the same rule: controls, marks and
    /// format characters 0, East Asian wide 2, others 1).
    static func labelColumns(_ label: String) -> Int {
        label.unicodeScalars.reduce(0) { $0 + DisplayText.width(of: $1) }
    }
}

/// The shape of an SQS queue URL: `https://HOST/ACCOUNT/NAME` (12-digit account, 1–80 characters of
/// `[A-Za-z0-9_-]`, optionally ending in `.fifo`); `http://` only to loopback (local servers).
public enum QueueURLShape {
    public static func isQueueURL(_ text: String) -> Bool {
        guard let parts = WebURL.split(text), parts.scheme == "https" || (parts.scheme == "http" && parts.isLoopback) else {
            return false
        }
        let segments = parts.path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3, segments[0].isEmpty, segments[1].count == 12,
              segments[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        var name = Substring(segments[2])
        if name.hasSuffix(".fifo") { name = name.dropLast(5) }
        return (1...80).contains(name.count) && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
    }
}

/// Small, strict URL checks (no Foundation URL parsing quirks): scheme, host, port, path; no user info.
public enum WebURL {
    public struct Parts: Equatable {
        public var scheme: String
        public var host: String
        public var path: String
        /// 127.0.0.0/8 as four decimal octets, `[::1]` or `localhost` (`NetworkAddress.isLoopbackHost`).
        public var isLoopback: Bool { NetworkAddress.isLoopbackHost(host) }
    }

    /// The shape of a webhook an action may name: https, or http only to loopback. Where it points is
    /// `webhookHostRefusal`'s question.
    public static func isAllowedWebhook(_ text: String) -> Bool {
        guard let parts = split(text) else { return false }
        return parts.scheme == "https" || (parts.scheme == "http" && parts.isLoopback)
    }

    /// Why a webhook URL's host may not be contacted (`NetworkAddress.webhookHostRefusal`), nil when it may
    /// or when `text` is no URL at all (`isAllowedWebhook` says so).
    public static func webhookHostRefusal(_ text: String, allowPrivate: Bool) -> String? {
        guard let parts = split(text) else { return nil }
        return NetworkAddress.webhookHostRefusal(parts.host, allowPrivate: allowPrivate)
    }

    /// `scheme://host[:port]/path?query` of printable ASCII, scheme and host lower-case, no user info or
    /// fragment; nil for anything else.
    public static func split(_ text: String) -> Parts? {
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https" } else if text.hasPrefix("http://") { scheme = "http" } else { return nil }
        let rest = text.dropFirst(scheme.count + 3)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains("@"), !text.contains("#"), !text.contains("\\") else { return nil }
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            guard after.isEmpty || (after.hasPrefix(":") && validPort(after.dropFirst())) else { return nil }
            host = host[...close]
        } else if let colon = host.firstIndex(of: ":") {
            guard validPort(host[host.index(after: colon)...]) else { return nil }
            host = host[..<colon]
        }
        guard !host.isEmpty, host == host.lowercased() else { return nil }
        if !host.hasPrefix("[") {
            guard host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        }
        let pathAndQuery = rest[authorityEnd...]
        let path = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return Parts(scheme: scheme, host: String(host), path: String(path))
    }

    private static func validPort(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text) else { return false }
        return (1...65535).contains(n)
    }
}
