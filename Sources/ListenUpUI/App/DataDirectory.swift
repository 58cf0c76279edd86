import Foundation
import ListenUpCore

/// Finds the app's data files (CSS, later icons and schemas) both in a
/// checkout and when installed.
///
/// Order: `LISTENUP_DATA_DIR`; `<prefix>/share/listenup` next to the running
/// binary (`<prefix>/bin/listenup`, the installed layout); a `data/` folder
/// with `style.css` in an ancestor of the binary (a checkout: the binary is
/// in `.build/<config>/`); finally the checkout this file was compiled from.
public struct DataDirectory: Sendable, Equatable {
    /// The folder holding `style.css` and friends.
    public let url: URL

    public init(url: URL) { self.url = url }

    /// A file in the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Locates the data folder, or nil if none holds `style.css`.
    public static func locate(environment: [String: String], executable: URL = ResourceLocations.currentExecutable()) -> DataDirectory? {
        var candidates: [URL] = []
        if let explicit = environment["LISTENUP_DATA_DIR"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        let binDir = executable.deletingLastPathComponent()
        candidates.append(binDir.deletingLastPathComponent().appendingPathComponent("share/listenup"))
        var ancestor = binDir
        for _ in 0..<6 {
            candidates.append(ancestor.appendingPathComponent("data"))
            ancestor = ancestor.deletingLastPathComponent()
        }
        // #filePath: Sources/ListenUpUI/App/DataDirectory.swift → <checkout>/data
        let source = URL(fileURLWithPath: #filePath)
        candidates.append(source.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data"))
        let manager = FileManager.default
        return candidates.first { manager.fileExists(atPath: $0.appendingPathComponent("style.css").path) }
            .map { DataDirectory(url: $0.standardizedFileURL) }
    }

}
