import Foundation

/// The app's GSettings schema from `data/`, compiled once per test process
/// into a temp folder, for child processes (`GSETTINGS_SCHEMA_DIR`) and
/// in-process stores alike. Tests never depend on `make` having compiled it.
public enum CompiledSchema {
    /// The checkout's `data/` folder.
    public static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data")

    /// A folder holding `gschemas.compiled` with `io.github.listenup.Desktop`.
    public static let directory: Result<String, CompileError> = compile()

    /// Why the schema could not be compiled.
    public struct CompileError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The environment a child process of the app needs to keep its settings
    /// under `home` alone: the schema, and GLib's keyfile backend (which
    /// writes `$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`, never the
    /// desktop's dconf database).
    public static var childEnvironment: [String: String] {
        var environment = ["GSETTINGS_BACKEND": "keyfile"]
        if case .success(let directory) = directory { environment["GSETTINGS_SCHEMA_DIR"] = directory }
        return environment
    }

    /// Runs a tool from the PATH; throws unless it exits with 0.
    static func runTool(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CompileError(description: "\(arguments[0]) exited with \(process.terminationStatus)")
        }
    }

    private static func compile() -> Result<String, CompileError> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-schemas-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = "io.github.listenup.Desktop.gschema.xml"
            let target = folder.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: dataFolder.appendingPathComponent(name), to: target)
            try runTool(["glib-compile-schemas", "--strict", folder.path])
            return .success(folder.path)
        } catch let error as CompileError {
            return .failure(error)
        } catch {
            return .failure(CompileError(description: "\(error)"))
        }
    }
}

/// The checkout's translations (`po/<lang>.po` for each language in
/// `po/LINGUAS`), compiled once per test process with msgfmt into a temp
/// `locale` folder, for child processes (`LISTENUP_LOCALE_DIR`).
public enum CompiledTranslations {
    /// A folder with `<lang>/LC_MESSAGES/listenup.mo`.
    public static let directory: Result<String, CompiledSchema.CompileError> = compile()

    private static func compile() -> Result<String, CompiledSchema.CompileError> {
        let po = CompiledSchema.dataFolder.deletingLastPathComponent().appendingPathComponent("po")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-locale-\(getpid())")
        do {
            let languages = try String(contentsOf: po.appendingPathComponent("LINGUAS"), encoding: .utf8)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            for language in languages {
                let target = folder.appendingPathComponent("\(language)/LC_MESSAGES")
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                try CompiledSchema.runTool(["msgfmt", "--check", "-o", target.appendingPathComponent("listenup.mo").path,
                                            po.appendingPathComponent("\(language).po").path])
            }
            return .success(folder.path)
        } catch let error as CompiledSchema.CompileError {
            return .failure(error)
        } catch {
            return .failure(CompiledSchema.CompileError(description: "\(error)"))
        }
    }
}
