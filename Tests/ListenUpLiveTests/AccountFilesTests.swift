import Foundation
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// A removed saved server's files: exactly the pair's, every one of them.
@Suite("AccountFiles")
struct AccountFilesTests {
    @Test func deletesThePairsFilesAndNoOthers() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-account-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = XDGDirectories(environment: ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                                                       "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                                                       "XDG_STATE_HOME": home.appendingPathComponent("state").path])
        let server = try #require(URL(string: "http://127.0.0.1:8080"))
        let gone = AccountFiles(directories: directories, server: server, userID: "u1")
        let kept = AccountFiles(directories: directories, server: server, userID: "u2")
        for files in [gone, kept] {
            for file in [files.libraryCache, files.listening] {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("x".utf8).write(to: file)
                try Data("w".utf8).write(to: URL(fileURLWithPath: file.path + "-wal"))
            }
            for folder in [files.covers, files.downloads] {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent("book-1"), withIntermediateDirectories: true)
            }
        }
        // The names the stores use.
        #expect(gone.covers.lastPathComponent == gone.libraryCache.deletingPathExtension().lastPathComponent
            .replacingOccurrences(of: "library-", with: "covers-"))
        #expect(gone.libraryCache.path.hasPrefix(home.appendingPathComponent("cache/listenup").path))
        #expect(gone.downloads.path.hasPrefix(home.appendingPathComponent("data/listenup/downloads").path))
        #expect(gone.listening.path.hasPrefix(home.appendingPathComponent("state/listenup").path))

        gone.delete()
        #expect(gone.all.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "every file of the pair is gone")
        #expect([kept.libraryCache, kept.listening, kept.covers, kept.downloads].allSatisfy { FileManager.default.fileExists(atPath: $0.path) },
                "another account's stay")
    }
}
