import CGettext
import Foundation

/// Marks a user-visible string for translation and returns it translated.
///
/// Uses the gettext domain `listenup` (bound at start-up by the executable);
/// with no catalogue installed the English text is returned unchanged.
/// `%@` placeholders are replaced in order by `arguments`.
public func tr(_ message: String, _ arguments: String...) -> String {
    var text = message.withCString { String(cString: dgettext(Localization.domain, $0)) }
    for argument in arguments {
        guard let range = text.range(of: "%@") else { break }
        text.replaceSubrange(range, with: argument)
    }
    return text
}

/// The app's gettext set-up.
public enum Localization {
    /// The gettext domain.
    public static let domain = "listenup"

    /// Binds the domain to `localeDirectory` (`…/share/locale`) and selects the
    /// user's locale for messages.
    public static func bind(localeDirectory: String) {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, localeDirectory)
        bind_textdomain_codeset(domain, "UTF-8")
    }
}
