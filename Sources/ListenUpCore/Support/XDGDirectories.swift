import Foundation

/// The XDG base directories, read from an environment (so tests can point
/// them all at a temp folder).
public struct XDGDirectories: Sendable, Equatable {
    public var configHome: URL
    public var dataHome: URL
    public var stateHome: URL
    public var cacheHome: URL

    /// Resolves the directories the XDG Base Directory spec way: an absolute
    /// `XDG_*_HOME` wins, otherwise the default under `HOME`.
    public init(environment: [String: String]) {
        let home = URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory())
        func dir(_ key: String, _ fallback: String) -> URL {
            if let value = environment[key], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        configHome = dir("XDG_CONFIG_HOME", ".config")
        dataHome = dir("XDG_DATA_HOME", ".local/share")
        stateHome = dir("XDG_STATE_HOME", ".local/state")
        cacheHome = dir("XDG_CACHE_HOME", ".cache")
    }

    /// The app's folder inside `base`.
    public static func app(_ base: URL) -> URL { base.appendingPathComponent("listenup", isDirectory: true) }
}
