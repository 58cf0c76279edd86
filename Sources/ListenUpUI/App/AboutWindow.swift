import CAdwaita
import GtkBridge
import ListenUpCore

/// The About window (`AdwAboutWindow`, `data/ui/about-window.ui`), modal
/// and transient for `parent`.
@MainActor
enum AboutWindow {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>) {
        let about = make()
        about.window.setTransientFor(parent)
        about.window.present()
    }

    /// The window, not shown yet: the template's, with the version and the
    /// translators. GTK keeps it until it is closed (or destroyed).
    static func make() -> AboutDialog {
        let about: AboutDialog = PageTemplates.load("about-window").child("root")
        about.version = AppInfo.version
        // A template cannot leave a property unset when its text has no
        // translation, so the credits are the one text set here.
        // TRANSLATORS: replace with your names, one per line, to be credited in the About window.
        let credits = tr("translator-credits")
        if credits != "translator-credits" { about.translatorCredits = credits }
        return about
    }
}
