import Foundation
import ListenUpCore
import Logging

extension SessionStore {
    /// Sessions as files in `directory` (created 0700), one per server, each
    /// written 0600 and replaced atomically. The fallback when no Secret
    /// Service is reachable. A file that cannot be read counts as no session.
    public static func file(in directory: URL, logger: Logger) -> SessionStore {
        @Sendable func url(for server: URL) -> URL {
            // The origin, made safe as a file name.
            let name = server.absoluteString.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
            return directory.appendingPathComponent("session-\(name).json")
        }
        return SessionStore(
            load: { server in
                guard let data = try? Data(contentsOf: url(for: server)) else { return nil }
                do {
                    return try JSONDecoder().decode(StoredSession.self, from: data)
                } catch {
                    logger.warning("Saved session file unreadable; signing in again will be needed")
                    return nil
                }
            },
            save: { session in
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                let target = url(for: session.serverURL)
                let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
                let data = try JSONEncoder().encode(session)
                let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
                let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                guard written == data.count, rename(temporary.path, target.path) == 0 else {
                    unlink(temporary.path)
                    throw CocoaError(.fileWriteUnknown)
                }
            },
            delete: { server in
                unlink(url(for: server).path)
            }
        )
    }
}
