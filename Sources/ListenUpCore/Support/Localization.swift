import CGettext
import Foundation

/// Marks a user-visible string for translation and returns it translated.
///
/// Uses the gettext domain `listenup` (bound at start-up by the executable);
/// with no catalogue installed the English text is returned unchanged.
/// `%@` placeholders are replaced in order by `arguments`.
public func tr(_ message: String, _ arguments: String...) -> String {
    let text = message.withCString { String(cString: dgettext(Localization.domain, $0)) }
    return Localization.substitute(arguments, into: text)
}

/// Like ``tr(_:_:)`` for a message whose wording depends on a number: the
/// catalogue picks the plural form the language needs for `count` (German and
/// French differ on 0 and 1, others have more forms).
///
/// `count` is not substituted by itself; pass it (formatted) among `arguments`.
public func trn(_ singular: String, _ plural: String, count: Int, _ arguments: String...) -> String {
    let text = singular.withCString { one in
        plural.withCString { many in
            String(cString: dngettext(Localization.domain, one, many, UInt(clamping: max(count, 0))))
        }
    }
    return Localization.substitute(arguments, into: text)
}

/// The app's gettext set-up.
public enum Localization {
    /// The gettext domain.
    public static let domain = "listenup"

    /// Replaces each `%@` in `text`, in order, by the next argument.
    static func substitute(_ arguments: [String], into text: String) -> String {
        var result = ""
        var rest = Substring(text)
        for argument in arguments {
            guard let range = placeholder(in: rest) else { break }
            result += rest[..<range.lowerBound]
            result += argument
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The first `%@` in `text`. Searched by hand: Foundation's
    /// `range(of:)` goes through CoreFoundation's string search, whose
    /// Unicode tables (about 0.6 MiB) the first page would otherwise be the
    /// only one to touch (docs/performance.md).
    private static func placeholder(in text: Substring) -> Range<Substring.Index>? {
        var start = text.startIndex
        while let percent = text[start...].firstIndex(of: "%") {
            let next = text.index(after: percent)
            if next < text.endIndex, text[next] == "@" { return percent..<text.index(after: next) }
            start = next
        }
        return nil
    }

    /// The user's locale for numbers (`LC_ALL`, else `LC_NUMERIC`, else
    /// `LANG`): Foundation on Linux does not read the POSIX variables itself.
    public static let numberLocale = posixLocale(category: "LC_NUMERIC")
    /// The user's locale for dates and times (`LC_ALL`, `LC_TIME`, `LANG`).
    public static let timeLocale = posixLocale(category: "LC_TIME")

    /// A count as the user's locale writes it ("10,000", "10.000", "10 000").
    public static func number(_ value: Int) -> String {
        value.formatted(.number.locale(numberLocale))
    }

    /// A date and time, medium date and short time, in the user's locale.
    public static func dateAndTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = timeLocale
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }

    /// `de_DE.UTF-8@euro` → `de_DE`; `C`, `POSIX` or nothing → `en_US`.
    static func posixLocale(category: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Locale {
        let value = [environment["LC_ALL"], environment[category], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let identifier = String(value.prefix { $0 != "." && $0 != "@" })
        guard !identifier.isEmpty, identifier != "C", identifier != "POSIX" else { return Locale(identifier: "en_US") }
        return Locale(identifier: identifier)
    }

    /// Binds the domain to `localeDirectory` (`…/share/locale`) and selects the
    /// user's locale for messages.
    public static func bind(localeDirectory: String) {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
    }
}
