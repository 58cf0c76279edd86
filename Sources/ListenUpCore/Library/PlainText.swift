/// Turns a book description (HTML from the server, or plain text) into plain
/// text that is safe to show in a label: tags dropped, `script`/`style`
/// content dropped, block ends and `<br>` made line breaks, entities decoded
/// (numeric ones only when they name a real, printable character), blank
/// runs collapsed. Nothing in the result is markup.
public enum PlainText {
    public static func fromHTML(_ html: String, maxLength: Int = 20_000) -> String {
        var output = ""
        var index = html.startIndex
        var skippingUntil: String?
        while index < html.endIndex {
            let character = html[index]
            if character == "<" {
                // A lone "<" is text (labels never parse markup).
                guard let close = html[index...].firstIndex(of: ">") else {
                    if skippingUntil == nil { output.append(contentsOf: html[index...]) }
                    break
                }
                let tag = html[html.index(after: index)..<close].lowercased()
                let name = String(tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber }))
                let closing = tag.hasPrefix("/")
                if let skipping = skippingUntil {
                    if closing, name == skipping { skippingUntil = nil }
                } else if !closing, name == "script" || name == "style" {
                    skippingUntil = name
                } else if name == "br" {
                    output.append("\n")
                } else if closing, ["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr"].contains(name) {
                    output.append("\n\n")
                } else if !closing, name == "li" {
                    output.append("• ")
                }
                index = html.index(after: close)
                continue
            }
            if skippingUntil != nil {
                index = html.index(after: index)
                continue
            }
            if character == "&", let semicolon = html[index...].prefix(12).firstIndex(of: ";"),
               let decoded = entity(String(html[html.index(after: index)..<semicolon])) {
                output.append(decoded)
                index = html.index(after: semicolon)
                continue
            }
            output.append(character)
            index = html.index(after: index)
            if output.count > maxLength * 2 { break }
        }
        return tidy(output, maxLength: maxLength)
    }

    private static func entity(_ name: String) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        case "mdash": return "—"
        case "ndash": return "–"
        case "hellip": return "…"
        case "rsquo": return "’"
        case "lsquo": return "‘"
        case "rdquo": return "”"
        case "ldquo": return "“"
        default: break
        }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        guard let value, let scalar = Unicode.Scalar(value), value >= 0x20 || value == 0x0A,
              !(0x7F...0x9F).contains(value) else { return nil }
        return Character(scalar)
    }

    /// Spaces and tabs collapsed, at most one blank line in a row, control
    /// characters dropped, trimmed, cut at `maxLength` with an ellipsis.
    private static func tidy(_ text: String, maxLength: Int) -> String {
        var lines: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cleaned = raw.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" }
            let line = String(String.UnicodeScalarView(cleaned)).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        let joined = lines.joined(separator: "\n")
        return joined.count > maxLength ? String(joined.prefix(maxLength)) + "…" : joined
    }
}
