/// How the `events` table keeps an event's text fields once: in `raw_json` only.
///
/// Each text field (`id`, `agent_id`, `task_id`, `title`, `body`, `status`, `category`) is a VIRTUAL
/// generated column read from `raw_json` with SQLite's `json_extract`, so queries name it as before and it
/// takes no space. A stored companion column (`<field>_own`) holds the value only when the payload does
/// not give exactly it (an event built in code, a blank category, an escape SQLite decodes otherwise):
/// ingest compares the two with `IS` and keeps the field's own value whenever they differ, so what is read
/// back is always exactly what was stored.
enum PayloadColumns {
    /// A text field of the event and how its value is read from the payload.
    struct Field: Sendable {
        /// The column name (the payload's key too).
        var name: String
        /// The field's value as the payload gives it, as SQL over the JSON text `raw`.
        var fromPayload: @Sendable (_ raw: String) -> String
        /// Whether the field may be NULL (then an own value of `X''` stands for NULL, since an own NULL
        /// means "read the payload").
        var nullable: Bool

        /// The companion column that holds the value when the payload does not.
        var own: String { name + "_own" }
    }

    static let fields: [Field] = [
        Field(name: "id", fromPayload: { extract($0, "id") }, nullable: false),
        Field(name: "agent_id", fromPayload: { extract($0, "agent_id") }, nullable: false),
        Field(name: "task_id", fromPayload: { extract($0, "task_id") }, nullable: false),
        Field(name: "title", fromPayload: { extract($0, "title") }, nullable: false),
        // A payload without a body has an empty one.
        Field(name: "body", fromPayload: { "coalesce(\(extract($0, "body")), '')" }, nullable: false),
        Field(name: "status", fromPayload: { extract($0, "status") }, nullable: false),
        Field(name: "category", fromPayload: { extract($0, "category") }, nullable: true),
    ]

    private static func extract(_ raw: String, _ key: String) -> String {
        "json_extract(\(raw), '$.\(key)')"
    }

    /// Column definitions for `CREATE TABLE events`: each field's companion column (no declared type, so
    /// values keep their type) and its generated column.
    static var definitions: String {
        fields.map { field in
            let read = field.nullable
                ? "CASE WHEN \(field.own) IS NULL THEN \(field.fromPayload("raw_json"))"
                    + " WHEN typeof(\(field.own)) = 'blob' THEN NULL ELSE \(field.own) END"
                : "coalesce(\(field.own), \(field.fromPayload("raw_json")))"
            return "\(field.own), \(field.name) TEXT GENERATED ALWAYS AS (\(read)) VIRTUAL"
        }.joined(separator: ",\n")
    }

    /// SQL for what a field's companion column stores, given the field's value and the payload (both SQL
    /// expressions): NULL when the payload gives exactly the value, else the value (`X''` for a NULL one).
    static func ownValue(_ field: Field, value: String, raw: String) -> String {
        "CASE WHEN \(field.fromPayload(raw)) IS \(value) THEN NULL"
            + (field.nullable ? " WHEN \(value) IS NULL THEN X''" : "") + " ELSE \(value) END"
    }
}
