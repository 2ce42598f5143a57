import TimelineCore

/// A paste (bracketed by the terminal): never a command or Enter. In the text prompt its text is inserted
/// with every line break, tab and other control character turned into a space; a paste that would pass
/// the reply's byte limit is refused whole (the prompt says so). In the search prompt and the `:` line the
/// same text is inserted; anywhere else it is ignored, with a
/// notice (in a `y/N` confirmation, in place of its footer: only a typed `y` sends).
func reducePaste(_ s: inout AppState, _ text: String) -> [Effect] {
    let flat = pastedLine(text)
    if s.helpOpen || s.pollerMessageOpen { return [] }
    switch s.answering.prompt {
    case .text(var typing):
        if typing.text.utf8.count + flat.utf8.count > Reply.maxTextBytes {
            typing.note = "paste refused: over \(Reply.maxTextBytes) bytes"
        } else {
            typing.text += flat
            typing.note = nil
        }
        s.answering.prompt = .text(typing)
        return []
    case .confirm:
        s.answering.confirmNote = AnswerConfirmation.pasteIgnored
        return []
    case nil:
        break
    }
    if s.search.promptOpen {
        s.search.text = String((s.search.text + flat).prefix(200))
        return searchChanged(&s)
    }
    if let line = s.commandLine {
        s.commandLine = String((line + flat).prefix(200))
        return []
    }
    s.showNotice("paste ignored: paste into a text prompt (r, /, :)")
    return []
}

/// Pasted text on one line: line breaks, tabs and every other character unsafe for a terminal become spaces.
func pastedLine(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        out.append(TerminalSafety.isUnsafe(scalar) || scalar == "\t" ? " " : scalar)
    }
    return String(out)
}
