import Foundation

/// The payloads a connection's row reads rendered last (`PayloadShapes.payload(template:values:)`), by
/// event seq: the viewer reads the same rows again and again (its window after every store change, a
/// scroll back), and a row whose template and values are byte for byte the ones a payload was rendered
/// from gets that payload again without rendering it or building its text. The comparison is the whole
/// input of the rendering, so a changed or reused seq never gets another row's payload.
// @unchecked: only reached under the store's lock (reads hold it).
final class RenderedPayloads: @unchecked Sendable {
    /// Bytes of payloads and templates kept; all are forgotten at once past it (a window of 60 rows of
    /// usual payloads keeps ~60 KiB; rows with huge payloads are rendered each time).
    static let byteLimit = 256 * 1024
    /// Payloads kept, whatever their size; all are forgotten at once past it. A viewer's windows and their
    /// margins hold a few hundred rows; without this bound, small payloads let the table grow to ~16,000
    /// entries while the TUI scrolled through 1,000,000 events, and its storage (kept for reuse) was 8 MiB
    /// of the viewer's peak RSS (rows without a template render an empty payload of no bytes).
    static let entryLimit = 1_024

    private struct Entry {
        let template: [UInt8]?
        let values: PayloadValues
        let payload: String
    }

    private var entries: [Int64: Entry] = [:]
    private var bytes = 0

    /// Payloads kept now.
    var count: Int { entries.count }

    /// The payload of event `seq` rendered from `template` (nil: SQL NULL) and `values`.
    func payload(seq: Int64, template: UnsafeBufferPointer<UInt8>?, values: PayloadValues) throws -> String {
        if let entry = entries[seq], Self.same(entry.values, values), Self.same(entry.template, template) {
            return entry.payload
        }
        let payload = try PayloadShapes.payload(template: template, values: values)
        let size = payload.utf8.count + (template?.count ?? 0)
        if bytes + size > Self.byteLimit || entries.count >= Self.entryLimit {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
        if size <= Self.byteLimit {
            if let old = entries.updateValue(Entry(template: template.map(Array.init), values: values, payload: payload), forKey: seq) {
                bytes -= old.payload.utf8.count + (old.template?.count ?? 0)
            }
            bytes += size
        }
        return payload
    }

    private static func same(_ kept: [UInt8]?, _ template: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let kept, let template else { return kept == nil && template == nil }
        return ByteScan.equal(kept, template)
    }

    /// Byte equality of the values (String's `==` would take canonically equivalent text as equal).
    private static func same(_ a: PayloadValues, _ b: PayloadValues) -> Bool {
        a.timestampMicros == b.timestampMicros && a.progress?.bitPattern == b.progress?.bitPattern
            && same(a.id, b.id) && same(a.agentID, b.agentID) && same(a.taskID, b.taskID) && same(a.title, b.title)
            && same(a.body, b.body) && same(a.status, b.status) && same(a.category, b.category)
    }

    private static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return ByteScan.equal(a, b)
    }
}
