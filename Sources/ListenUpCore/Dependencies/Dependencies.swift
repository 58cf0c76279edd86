import Foundation
import Logging

/// Every service the core uses, built once in the composition root and passed
/// down through initialisers. Three variants: `live` (the real app), `preview`
/// (`--preview`, design work: nothing persists) and `test`.
public struct Dependencies: Sendable {
    /// Persisted settings.
    public var settings: SettingsClient
    /// Where the app keeps its files.
    public var directories: XDGDirectories
    /// Diagnostics; goes to stderr, never stdout.
    public var logger: Logger

    public init(settings: SettingsClient, directories: XDGDirectories, logger: Logger) {
        self.settings = settings
        self.directories = directories
        self.logger = logger
    }

    /// The real services, with files under the XDG directories of `environment`.
    public static func live(environment: [String: String], logger: Logger) -> Dependencies {
        let directories = XDGDirectories(environment: environment)
        return Dependencies(
            settings: .file(in: XDGDirectories.app(directories.configHome), logger: logger),
            directories: directories,
            logger: logger
        )
    }

    /// Services for previews: in memory, seeded with `settings`.
    public static func preview(settings: AppSettings = AppSettings(), logger: Logger) -> Dependencies {
        Dependencies(
            settings: .inMemory(settings),
            directories: XDGDirectories(environment: ["HOME": NSTemporaryDirectory()]),
            logger: logger
        )
    }

    /// Services for tests: in memory, silent logger unless one is given.
    public static func test(settings: AppSettings = AppSettings(), logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) -> Dependencies {
        preview(settings: settings, logger: logger)
    }
}
