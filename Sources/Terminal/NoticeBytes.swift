import TimelineCore

/// Which desktop-notification sequence the terminal understands.
public enum NotificationSequence: String, CaseIterable, Sendable {
    /// OSC 9 (iTerm2, WezTerm, Ghostty, foot, Windows Terminal): `ESC ] 9 ; text ST`.
    case osc9
    /// OSC 777 (VTE, urxvt): `ESC ] 777 ; notify ; title ; body ST`.
    case osc777
    /// OSC 99 (kitty): title and body as two parts of one notification.
    case osc99
    /// No sequence, only the BEL.
    case bell
    /// No notification output at all.
    case none

    /// The sequence the environment's terminal understands (kitty → 99, VTE/urxvt → 777, else 9).
    public static func detect(_ env: [String: String]) -> NotificationSequence {
        let term = env["TERM"] ?? ""
        if env["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return .osc99 }
        if env["VTE_VERSION"] != nil || term.hasPrefix("rxvt") { return .osc777 }
        return .osc9
    }
}

/// Turns `TerminalNotice`s into the bytes written between frames.
///
/// A notification is its sequence, then one BEL (so tmux's `monitor-bell` and the window manager's urgency
/// hint fire). Every OSC ends with ST (`ESC \`), so the only BEL is the one after it. Under tmux the OSC is
/// wrapped for passthrough, `ESC P tmux; … ESC \` with each ESC inside doubled; the BEL stays outside so
/// tmux itself sees it. The window title is pushed (XTWINOPS 22;0t), set with OSC 2, popped (23;0t).
/// Text goes through `NotificationField`: no byte of event text can end or extend a sequence.
public struct NoticeBytes: Sendable {
    public var sequence: NotificationSequence
    /// Inside tmux (`$TMUX` set): notification sequences are wrapped for passthrough.
    public var tmux: Bool

    public init(sequence: NotificationSequence, tmux: Bool) {
        self.sequence = sequence
        self.tmux = tmux
    }

    static let esc: UInt8 = 0x1B
    static let st: [UInt8] = [0x1B, 0x5C]
    static let bel: UInt8 = 0x07

    public func bytes(_ notices: [TerminalNotice]) -> [UInt8] { notices.flatMap(bytes) }

    public func bytes(_ notice: TerminalNotice) -> [UInt8] {
        switch notice {
        case .notification(let title, let body): notificationBytes(title: title, body: body)
        case .windowTitle(let text): Self.osc("2;" + NotificationField.text(text, limit: NotificationField.windowTitleLimit))
        case .saveWindowTitle: Array("\u{1B}[22;0t".utf8)
        case .restoreWindowTitle: Array("\u{1B}[23;0t".utf8)
        }
    }

    private func notificationBytes(title: String, body: String) -> [UInt8] {
        if sequence == .none { return [] }
        let t = NotificationField.text(title, limit: NotificationField.titleLimit)
        let b = NotificationField.text(body, limit: NotificationField.bodyLimit)
        let oscs: [[UInt8]]
        switch sequence {
        case .osc9: oscs = [Self.osc("9;" + (b.isEmpty ? t : "\(t): \(b)"))]
        // `;` separates title from body: a `;` in the title would move text into the body.
        case .osc777: oscs = [Self.osc("777;notify;\(t.replacingOccurrences(of: ";", with: ","));\(b)")]
        case .osc99: oscs = [Self.osc("99;i=timeline:d=0:p=title;\(t)"), Self.osc("99;i=timeline:d=1:p=body;\(b)")]
        case .bell, .none: oscs = []
        }
        return oscs.flatMap { tmux ? Self.tmuxPassthrough($0) : $0 } + [Self.bel]
    }

    /// `ESC ] text ST`.
    static func osc(_ text: String) -> [UInt8] { [esc, 0x5D] + Array(text.utf8) + st }

    /// `ESC P tmux; <sequence with every ESC doubled> ESC \`.
    static func tmuxPassthrough(_ sequence: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [esc] + Array("Ptmux;".utf8)
        for byte in sequence {
            if byte == esc { out.append(esc) }
            out.append(byte)
        }
        return out + st
    }
}
