import Foundation

/// Where the running binary finds its compiled resources (the GSettings
/// schema, the translations, the page templates), installed and in a checkout alike.
///
/// Installed (`meson-helper`, a Flatpak's `/app`): the binary is
/// `<prefix>/bin/listenup` and the resources are under `<prefix>/share`.
/// In a checkout the binary is under `.build/<triple>/<config>/`, and
/// `build-aux/compile-data` (run by `make run` and `make test`) compiles them
/// into `.build/schemas` and `.build/locale`.
public struct ResourceLocations: Sendable, Equatable {
    /// The running binary.
    public var executable: URL

    public init(executable: URL = ResourceLocations.currentExecutable()) {
        self.executable = executable
    }

    /// `<prefix>` when the binary sits in `<prefix>/bin`.
    private var prefix: URL { executable.deletingLastPathComponent().deletingLastPathComponent() }

    /// The `.build` folder the binary was built into, if it was.
    var buildFolder: URL? {
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            if folder.lastPathComponent == ".build" { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Folders that may hold a `gschemas.compiled` with the app's schema, to
    /// try after GLib's own sources (`GSETTINGS_SCHEMA_DIR`, the XDG data
    /// folders): the prefix's, then the checkout's.
    public var schemaDirectories: [String] {
        [prefix.appendingPathComponent("share/glib-2.0/schemas").path] + (buildFolder.map { [$0.appendingPathComponent("schemas").path] } ?? [])
    }

    /// The folder with `<lang>/LC_MESSAGES/listenup.mo`: `LISTENUP_LOCALE_DIR`,
    /// else the prefix's `share/locale` when it exists, else the checkout's
    /// `.build/locale` when it exists, else the prefix's (English only).
    public func localeDirectory(environment: [String: String]) -> String {
        if let explicit = environment["LISTENUP_LOCALE_DIR"], !explicit.isEmpty { return explicit }
        let installed = prefix.appendingPathComponent("share/locale").path
        var candidates = [installed]
        if let buildFolder { candidates.append(buildFolder.appendingPathComponent("locale").path) }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? installed
    }

    /// Files that may be the page templates' GResource bundle, in the order
    /// to try them: `LISTENUP_DATA_DIR`'s, the prefix's
    /// (`share/listenup/listenup.gresource`), the checkout's
    /// (`.build/listenup.gresource`, from `build-aux/compile-data`).
    public func templateBundles(environment: [String: String]) -> [String] {
        let name = "listenup.gresource"
        var files: [String] = []
        if let explicit = environment["LISTENUP_DATA_DIR"], !explicit.isEmpty {
            files.append(URL(fileURLWithPath: explicit).appendingPathComponent(name).path)
        }
        files.append(prefix.appendingPathComponent("share/listenup").appendingPathComponent(name).path)
        if let buildFolder { files.append(buildFolder.appendingPathComponent(name).path) }
        return files
    }

    /// The running binary, resolved through `/proc/self/exe`.
    public static func currentExecutable() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "listenup").standardizedFileURL
    }
}
