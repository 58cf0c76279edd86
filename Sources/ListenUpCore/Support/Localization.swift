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
            guard let range = rest.range(of: "%@") else { break }
            result += rest[..<range.lowerBound]
            result += argument
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// Binds the domain to `localeDirectory` (`…/share/locale`) and selects the
    /// user's locale for messages.
    public static func bind(localeDirectory: String) {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
    }
}
