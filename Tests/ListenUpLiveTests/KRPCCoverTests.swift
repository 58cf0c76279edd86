import DemoServer
import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// Covers over kRPC (contract §4, §6.6): fetched with the Bearer token and
/// `?w=300`, kept with their `ETag`, and revalidated with `If-None-Match`
/// when the book changes; a 304 keeps the copy.
@Suite("kRPC covers with ETags")
struct KRPCCoverTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 3, count: 64)

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("listenup-krpc-covers-\(UUID().uuidString)")
    }

    @Test func theETagGoesBackAsIfNoneMatchAndA304KeepsTheCopy() async throws {
        let server = try await HostileServer.start { request in
            guard request.path == "/api/v1/covers/book-1?w=300" else { return .respond(status: 404, contentType: "application/json", body: Data()) }
            if request.header("If-None-Match") == "\"cover-hash@300\"" {
                return .respond(status: 304, contentType: "image/jpeg", body: Data(), headers: [("ETag", "\"cover-hash@300\"")])
            }
            return .respond(status: 200, contentType: "image/jpeg", body: Self.png,
                            headers: [("ETag", "\"cover-hash@300\""), ("Cache-Control", "private, max-age=31536000, immutable")])
        }
        defer { Task { await server.stop() } }
        let stored = Canned.storedSession(server.baseURL)
        let connection = KRPCServerConnection(baseURL: server.baseURL, session: stored, transport: .live, sessions: .inMemory([stored]),
                                              deviceInfo: Self.device, logger: logs.logger)
        #expect(try await connection.cover(bookID: "book-1", maxBytes: 1 << 20, ifNoneMatch: nil) == .image(Self.png, etag: "\"cover-hash@300\""))
        #expect(try await connection.cover(bookID: "book-1", maxBytes: 1 << 20, ifNoneMatch: "\"cover-hash@300\"") == .notModified)
        #expect(try await connection.cover(bookID: "book-2", maxBytes: 1 << 20, ifNoneMatch: nil) == CoverFetch.none)

        // Through the loader: the edit of the book revalidates.
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = CoverLoader(server: connection, cache: CoverFolder(directory), logger: logs.logger)
        let version = Date(timeIntervalSince1970: 1_787_300_000)
        #expect(await loader.cover(for: "book-1", version: version)?.bytes == Self.png)
        #expect(await loader.cover(for: "book-1", version: version.addingTimeInterval(30))?.bytes == Self.png)
        let covers = server.requests.filter { $0.path.hasPrefix("/api/v1/covers/book-1") }
        #expect(covers.count == 4)
        #expect(covers.map { $0.header("If-None-Match") } == [nil, "\"cover-hash@300\"", nil, "\"cover-hash@300\""])
        #expect(covers.allSatisfy { $0.header("Authorization") == "Bearer \(stored.accessToken)" })
        #expect(!logs.text.contains(stored.accessToken))
    }

    @Test func theGridAsksForW300ThePlayerForW600AndNeitherGetsTheOthersCopy() async throws {
        let small = Self.png + Data([3, 0, 0])
        let large = Self.png + Data([6, 0, 0])
        let server = try await HostileServer.start { request in
            switch request.path {
            case "/api/v1/covers/book-1?w=300": .respond(status: 200, contentType: "image/jpeg", body: small, headers: [("ETag", "\"h@300\"")])
            case "/api/v1/covers/book-1?w=600": .respond(status: 200, contentType: "image/jpeg", body: large, headers: [("ETag", "\"h@600\"")])
            default: .respond(status: 404, contentType: "application/json", body: Data())
            }
        }
        defer { Task { await server.stop() } }
        let stored = Canned.storedSession(server.baseURL)
        let connection = KRPCServerConnection(baseURL: server.baseURL, session: stored, transport: .live, sessions: .inMemory([stored]),
                                              deviceInfo: Self.device, logger: logs.logger)
        // A download keeps the player's size.
        #expect(try await connection.cover(bookID: "book-1", maxBytes: 1 << 20) == large)
        // The library's loader and the player's share one folder, as in the app.
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let version = Date(timeIntervalSince1970: 1_787_300_000)
        let library = CoverLoader(server: connection, cache: CoverFolder(directory), logger: logs.logger)
        #expect(await library.cover(for: "book-1", version: version)?.bytes == small)
        #expect(await library.cover(for: "book-1", version: version, size: .large)?.bytes == large, "not the grid's copy from memory")
        let player = CoverLoader(server: connection, cache: CoverFolder(directory), logger: logs.logger)
        #expect(await player.cover(for: "book-1", version: version, size: .large)?.bytes == large, "not the grid's copy from disk")
        #expect(await player.cover(for: "book-1", version: version)?.bytes == small)
        #expect(server.requests.map(\.path) == ["/api/v1/covers/book-1?w=600", "/api/v1/covers/book-1?w=300", "/api/v1/covers/book-1?w=600"],
                "each size fetched once, then served from disk")
    }

    @Test func theDemoServerAnswersTheRevalidationWith304() async throws {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 2
        configuration.protocol = .krpc
        configuration.admin = .init(email: "ada@example.com", password: "analytical-engine")
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        defer { Task { await server.stop() } }
        let connection = KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                              logger: logs.logger)
        _ = try await connection.login(email: "ada@example.com", password: "analytical-engine")
        let book = try #require(try await connection.syncBooks(limit: 10, cursor: nil, updatedAfter: nil).books.first { $0.hasCover })
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = CoverLoader(server: connection, cache: CoverFolder(directory), logger: logs.logger)
        let first = try #require(await loader.cover(for: book.id, version: book.updatedAt))
        // The book is edited (its version moves); the cover is not.
        let second = try #require(await CoverLoader(server: connection, cache: CoverFolder(directory), logger: logs.logger)
            .cover(for: book.id, version: book.updatedAt.addingTimeInterval(60)))
        #expect(second == first)
        #expect(server.requestCount("/api/v1/covers/\(book.id)") == 2)
        #expect(logs.text.contains("Cover unchanged (304)"), "the demo server answers 304 only to a matching If-None-Match")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2, "one cover and its ETag")
    }
}
