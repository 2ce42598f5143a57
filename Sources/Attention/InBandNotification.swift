import TimelineCore

/// The in-band channel: an escape sequence the TUI writes to its own terminal, then one BEL (so tmux's
/// `monitor-bell` and the window manager's urgency hint fire).
///
/// Every OSC ends with ST (`ESC \`), so the only BEL is the one after it. Under tmux (`$TMUX` set) the OSC
/// is wrapped for passthrough, `ESC P tmux; … ESC \` with each ESC inside doubled; the BEL stays outside
/// so tmux itself sees it. Text is made safe by `sanitizedField`: no byte of event text can end or extend
/// the sequence.
public enum InBandNotification {
    /// Which desktop-notification sequence the terminal understands.
    public enum Sequence: String, CaseIterable, Sendable {
        /// OSC 9 (iTerm2, WezTerm, Ghostty, foot, Windows Terminal): `ESC ] 9 ; text ST`.
        case osc9
        /// OSC 777 (VTE, urxvt): `ESC ] 777 ; notify ; title ; body ST`.
        case osc777
        /// OSC 99 (kitty): title and body as two parts of one notification.
        case osc99
        /// No sequence, only the BEL.
        case bell
        /// No in-band output at all.
        case none

        /// The sequence the environment's terminal understands (kitty → 99, VTE/urxvt → 777, else 9).
        public static func detect(_ env: [String: String]) -> Sequence {
            let term = env["TERM"] ?? ""
            if env["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return .osc99 }
            if env["VTE_VERSION"] != nil || term.hasPrefix("rxvt") { return .osc777 }
            return .osc9
        }
    }

    static let esc: UInt8 = 0x1B
    static let st: [UInt8] = [0x1B, 0x5C]
    static let bel: UInt8 = 0x07
    /// Longest title / body carried (characters); longer text is cut with an ellipsis.
    static let titleLimit = 80
    static let bodyLimit = 240

    /// The bytes for one notification: sequence (wrapped under tmux), then one BEL.
    public static func bytes(title: String, body: String, sequence: Sequence, tmux: Bool) -> [UInt8] {
        if sequence == .none { return [] }
        let t = sanitizedField(title, limit: titleLimit)
        let b = sanitizedField(body, limit: bodyLimit)
        var oscs: [[UInt8]] = []
        switch sequence {
        case .osc9: oscs = [osc("9;" + (b.isEmpty ? t : "\(t): \(b)"))]
        case .osc777: oscs = [osc("777;notify;\(t.replacingSemicolons);\(b)")]
        case .osc99: oscs = [osc("99;i=timeline:d=0:p=title;\(t)"), osc("99;i=timeline:d=1:p=body;\(b)")]
        case .bell, .none: break
        }
        var out: [UInt8] = []
        for seq in oscs { out += tmux ? tmuxPassthrough(seq) : seq }
        out.append(bel)
        return out
    }

    /// `ESC ] text ST`.
    static func osc(_ text: String) -> [UInt8] { [esc, 0x5D] + Array(text.utf8) + st }

    /// `ESC P tmux; <sequence with every ESC doubled> ESC \`.
    public static func tmuxPassthrough(_ sequence: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [esc] + Array("Ptmux;".utf8)
        for byte in sequence {
            if byte == esc { out.append(esc) }
            out.append(byte)
        }
        return out + st
    }

    /// Event text as one field of a sequence: `DisplayText.sanitize` (no C0/C1 controls, no escape
    /// sequences, no bidi overrides, line breaks shown as ⏎), then cut to `limit` characters.
    public static func sanitizedField(_ text: String, limit: Int) -> String {
        let clean = DisplayText.sanitize(text)
        return clean.count <= limit ? clean : String(clean.prefix(limit - 1)) + "…"
    }
}

extension String {
    /// OSC 777 separates title from body with `;`: a `;` in the title would move text into the body.
    var replacingSemicolons: String { replacingOccurrences(of: ";", with: ",") }
}
