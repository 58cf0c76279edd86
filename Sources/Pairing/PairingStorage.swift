import Foundation

/// Where pairing data lives and how it is written: `$XDG_DATA_HOME/listenup/`
/// (default `~/.local/share/listenup/`), directory 0700, files 0600, written
/// atomically (temporary file, then rename). Thread-safe (no shared state).
public struct PairingStorage: Sendable {
    /// The directory holding the identity and the paired devices.
    public let directory: URL

    /// - Parameter directory: where to keep the files; nil for `$XDG_DATA_HOME/listenup`.
    public init(directory: URL? = nil) {
        self.directory = directory ?? Self.defaultDirectory(appName: "listenup")
    }

    /// `$XDG_DATA_HOME/<appName>`, or `$HOME/.local/share/<appName>`.
    public static func defaultDirectory(appName: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent(appName, isDirectory: true)
    }

    /// The file `name` inside ``directory``.
    public func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Reads a file, or nil if it does not exist.
    public func read(_ name: String) throws -> Data? {
        let url = url(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Writes a file with mode 0600, creating the directory with 0700.
    public func write(_ data: Data, to name: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
        let target = url(name)
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PairingError.storage("cannot create \(temporary.lastPathComponent) (errno \(errno))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, target.path) == 0 else { throw PairingError.storage("cannot rename into \(name) (errno \(errno))") }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }
}
