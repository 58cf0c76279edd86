import DemoServer
import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import ServerSentEvents
import Testing
@testable import ListenUpCore

/// ``KRPCServerConnection`` against the demo server's kRPC mode: sign-in,
/// the token's life, live events and listening, through the server seam.
@Suite("The kRPC server connection")
struct KRPCServerConnectionTests {
    let logs = LogCapture()
    static let device = DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")

    /// Waits until the server has closed every kRPC socket (it closes them
    /// on their event loops): a call sent before that could still be
    /// answered on an old socket.
    static func waitUntilClosed(_ server: DemoServer) async throws {
        for _ in 0..<500 where server.kRPCSocketCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.kRPCSocketCount == 0)
    }

    func start(books: Int = 3, admin: Bool = true) async throws -> (DemoServer, URL) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.protocol = .krpc
        if admin { configuration.admin = .init(email: "ada@example.com", password: "analytical-engine") }
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        return (server, try #require(server.baseURL))
    }

    func connection(_ url: URL, sessions: SessionStore = .inMemory()) -> KRPCServerConnection {
        KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: sessions, deviceInfo: Self.device, logger: logs.logger)
    }

    @Test func theFirstAdminIsCreatedOnceAndAShortPasswordNeverReachesTheServer() async throws {
        let (server, url) = try await start(admin: false)
        defer { Task { await server.stop() } }
        let sessions = SessionStore.inMemory()
        let first = connection(url, sessions: sessions)
        await #expect(throws: ServerError.self) {
            _ = try await first.setupAdmin(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "short")
        }
        #expect(server.requestCount("AuthServicePublic.setupRoot") == 0)
        let session = try await first.setupAdmin(firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", password: "analytical-engine")
        #expect(session.displayName == "Ada Lovelace" && session.email == "ada@example.com")
        #expect(await sessions.load(url) == session)
        #expect(session.accessExpiresAt > Date().addingTimeInterval(600), "accessTokenExpiresAt: 15 minutes")
        do {
            _ = try await connection(url).setupAdmin(firstName: "Eve", lastName: "", email: "eve@example.com", password: "long-enough")
            Issue.record("a second admin was created")
        } catch {
            #expect(error.code == "conflict")
        }
        do {
            _ = try await connection(url).login(email: "ada@example.com", password: "wrong-password")
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(error.code == "invalidCredentials" && error.userMessage.contains("don't match"))
        }
        await first.logout()
        #expect(await sessions.load(url) == nil)
        #expect(server.requestCount("AuthServiceAuthed.logout") == 1)
    }

    @Test func aRefusedUpgradeRefreshesOnceAndARevokedSessionLapses() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let sessions = SessionStore.inMemory()
        let client = connection(url, sessions: sessions)
        let lapses = LockedValue(0)
        await client.onSessionLapsed { lapses.withLock { $0 += 1 } }
        let before = try await client.login(email: "ada@example.com", password: "analytical-engine")
        #expect(try await client.libraryBookCount() == 3)

        server.expireAccessTokens()
        server.dropEventStreams()  // every socket: the next call upgrades again, with the refused token
        try await Self.waitUntilClosed(server)
        #expect(try await client.libraryBookCount() == 3)
        #expect(server.requestCount("AuthServicePublic.refreshSession") == 1)
        let after = try #require(await client.currentSession)
        #expect(after.accessToken != before.accessToken && after.refreshToken != before.refreshToken)
        #expect(await sessions.load(url) == after, "only the newest pair is kept")

        server.revokeAllSessions()
        server.dropEventStreams()
        try await Self.waitUntilClosed(server)
        do {
            _ = try await client.libraryBookCount()
            Issue.record("a revoked session still worked")
        } catch {
            #expect(error == .sessionLapsed)
        }
        #expect(lapses.value == 1)
        #expect(await sessions.load(url) == nil)
    }

    @Test func liveEventsAnnounceBooksAsTheLibraryExpects() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let client = connection(url)
        _ = try await client.login(email: "ada@example.com", password: "analytical-engine")
        _ = try await client.syncBooks(limit: 100, cursor: nil, updatedAfter: nil)
        let events = try await client.liveEvents()
        for _ in 0..<500 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
        let added = server.addBook(title: "A Brand New Book")
        server.deleteBook(id: added)
        var seen: [String] = []
        for try await event in events where event.kind.hasPrefix("book") {
            seen.append(event.kind)
            if seen.count == 2 { break }
        }
        #expect(seen == ["bookChanged", "bookDeleted"])
    }

    @Test func listeningGoesAsEventsAndPositionsWithSignedAudio() async throws {
        let (server, url) = try await start()
        defer { Task { await server.stop() } }
        let client = connection(url)
        _ = try await client.login(email: "ada@example.com", password: "analytical-engine")
        let page = try await client.syncBooks(limit: 100, cursor: nil, updatedAfter: nil)
        let book = try #require(page.books.first)
        let access = try await client.audioAccess(bookID: book.id, fileIDs: book.audioFiles.map(\.id), afterRefusal: false)
        #expect(access.headers.isEmpty, "the signature is the authorisation")
        let first = try #require(access.urls[book.audioFiles[0].id])
        #expect(first.absoluteString.hasPrefix(url.absoluteString + "/api/v1/audio/") && first.query?.contains("sig=") == true)
        let audio = try await HTTPTransport.live.send(HTTPRequest(method: "GET", url: first, headers: [("Range", "bytes=0-15")]),
                                                      .seconds(5), 1 << 16)
        #expect(audio.status == 206)

        let now = Date()
        let spans = [
            ListeningSpan(id: "span-1", bookID: book.id, start: 0, end: 2_000, startedAt: now.addingTimeInterval(-4),
                          endedAt: now.addingTimeInterval(-2), rate: 1, deviceID: "device-1"),
            ListeningSpan(id: "span-2", bookID: book.id, start: 2_000, end: 3_500, startedAt: now.addingTimeInterval(-2),
                          endedAt: now, rate: 1, deviceID: "device-1"),
            ListeningSpan(id: "span-3", bookID: "book-nope", start: 0, end: 1_000, startedAt: now, endedAt: now, rate: 1, deviceID: "device-1"),
        ]
        let answer = try await client.sendListening(spans)
        #expect(answer.acknowledged == ["span-1", "span-2"] && answer.failed == ["span-3"])
        #expect(server.acceptedListeningEvents.map(\.id) == ["span-1", "span-2"])
        let positions = try await client.listeningPositions(updatedAfter: nil)
        #expect(positions.first { $0.bookID == book.id }?.position == 3_500)
        let continuing = try await client.continueListening(limit: 10)
        #expect(continuing.first?.bookID == book.id && continuing.first?.title == book.title, "\(continuing)")
        try await client.setFinished(true, row: ListeningPosition(bookID: book.id, position: 3_500, updatedAt: Date().addingTimeInterval(1),
                                                                  finished: true, playbackSpeed: 1.25, volumeBoostDb: 4))
        let stored = try #require(server.storedPosition(bookID: book.id))
        #expect(stored.finished && stored.positionMs == 3_500 && stored.playbackSpeed == 1.25 && stored.volumeBoostDb == 4,
                "the mark keeps the row's speed and boost")
        #expect(try await client.listeningPositions(updatedAfter: nil).first { $0.bookID == book.id }?.finished == true)
        #expect(try await client.continueListening(limit: 10).isEmpty)
    }
}
