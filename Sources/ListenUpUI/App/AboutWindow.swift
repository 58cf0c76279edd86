import CAdwaita
import GtkBridge
import ListenUpCore

/// The About window (`AdwAboutWindow`), transient for `parent`.
@MainActor
enum AboutWindow {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>) {
        let window = newObject(adw_about_window_new())
        let about = window.opaque
        adw_about_window_set_application_name(about, "ListenUp")
        adw_about_window_set_application_icon(about, AppInfo.id)
        adw_about_window_set_version(about, AppInfo.version)
        adw_about_window_set_developer_name(about, tr("The ListenUp for Linux developers"))
        adw_about_window_set_comments(about, tr("Listen to the audiobooks on your own ListenUp server."))
        adw_about_window_set_website(about, AppInfo.website)
        adw_about_window_set_issue_url(about, AppInfo.issues)
        adw_about_window_set_license_type(about, GTK_LICENSE_GPL_3_0)
        // TRANSLATORS: replace with your names, one per line, to be credited in the About window.
        let credits = tr("translator-credits")
        if credits != "translator-credits" { adw_about_window_set_translator_credits(about, credits) }
        gtk_window_set_transient_for(window.cast(to: GtkWindow.self), parent.cast(to: GtkWindow.self))
        gtk_window_set_modal(window.cast(to: GtkWindow.self), 1)
        gtk_window_present(window.cast(to: GtkWindow.self))
    }
}
