import Foundation
import ListenUpCore
import Logging

extension SettingsClient {
    /// Settings in `directory/settings.json`, written atomically.
    ///
    /// A file that cannot be decoded is moved aside to `settings.json.corrupt`
    /// (so nothing is silently lost) and defaults are used.
    public static func file(in directory: URL, logger: Logger) -> SettingsClient {
        let url = directory.appendingPathComponent("settings.json")
        return SettingsClient(
            load: {
                guard let data = try? Data(contentsOf: url) else { return AppSettings() }
                do {
                    return try JSONDecoder().decode(AppSettings.self, from: data)
                } catch {
                    let aside = url.appendingPathExtension("corrupt")
                    try? FileManager.default.removeItem(at: aside)
                    try? FileManager.default.moveItem(at: url, to: aside)
                    logger.warning("Settings file unreadable; moved aside", metadata: ["path": "\(aside.path)"])
                    return AppSettings()
                }
            },
            save: { settings in
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    try encoder.encode(settings).write(to: url, options: .atomic)
                } catch {
                    throw SettingsError.writeFailed(error.localizedDescription)
                }
            }
        )
    }
}
