/// What the About window and the desktop files say about the app, in one place.
enum AppInfo {
    /// The application id: GApplication, the desktop file, the icon, the GSettings schema.
    static let id = "io.github.listenup.Desktop"
    /// Matches the newest `<release>` in data/io.github.listenup.Desktop.metainfo.xml.
    static let version = "0.1.0"
    static let website = "https://github.com/listenup/listenup-linux"
    static let issues = "https://github.com/listenup/listenup-linux/issues"
}
