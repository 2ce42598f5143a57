// PROVISIONAL: replace every use of `ProvisionalDisplayText` with TimelineCore's `DisplayText`
// (`sanitize`, `escaped`; branch `core`) and delete this file once it is on main.

/// Minimal stand-in for `DisplayText.sanitize`: one safe row with no control characters, escape
/// sequences or bidi controls.
enum ProvisionalDisplayText {
    /// `s` with C0/C1 controls, DEL and bidi/format controls removed, tabs and line breaks as spaces.
    static func sanitize(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF, 0xFFF9...0xFFFB: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `s` truncated to at most `width` characters with an ellipsis (character count, not display width:
    /// `DisplayText` measures width properly).
    static func truncate(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        return s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
    }
}
