import DemoServer
import Foundation
import ListenUpKRPC
import ListenUpTestSupport
import Testing

/// The demo server's kRPC services (§3): auth with refresh rotation, sync
/// paging and live events, playback with signed URLs.
@Suite("Demo server, kRPC mode: services")
struct DemoKRPCServicesTests {
    let logs = LogCapture()

    private func request<R: Encodable & Sendable>(_ value: R) throws -> String {
        try KRPCTestSession.arguments(RequestArguments(value))
    }

    @Test func setupLoginAndFailuresCarryCorrelationIDs() async throws {
        let (server, port) = try await KRPCTestServer.start(admin: false, logs: logs)
        defer { Task { await server.stop() } }
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let setup = try request(RegisterRequest(email: "ada@example.com", password: "analytical-engine", displayName: "Ada Lovelace"))
        let root = try await session.value(.setupRoot, setup, as: AuthSession.self)
        #expect(root.user.displayName == "Ada Lovelace" && root.user.role == .root && root.user.status == .active)
        #expect(root.accessTokenExpiresAt - Int64(Date().timeIntervalSince1970 * 1000) <= 15 * 60 * 1000 + 1000)
        #expect(root.accessToken.split(separator: ".").count == 3)

        let again = try await session.result(.setupRoot, setup, as: AuthSession.self)
        #expect(again.error?.kind == .authSetupAlreadyComplete)
        #expect(again.error.flatMap { $0.correlationId.flatMap(UUID.init(uuidString:)) } != nil)
        let blank = try request(RegisterRequest(email: "b@example.com", password: "long enough", displayName: "  "))
        guard case .callException = try await session.call(.setupRoot, blank) else { Issue.record("blank displayName"); return }

        let wrong = try await session.result(.login, request(LoginRequest(email: "ada@example.com", password: "not-the-password")),
                                             as: AuthSession.self)
        #expect(wrong.error?.kind == .authInvalidCredentials)
        let signedIn = try await session.value(.login, request(LoginRequest(email: "ADA@example.com", password: "analytical-engine")),
                                               as: AuthSession.self)
        #expect(signedIn.sessionId != root.sessionId)
        let info = try await session.value(.getServerInfo, as: ServerInfo.self)
        #expect(!info.setupRequired)

        let authed = try await KRPCTestSession.open(port: port, mount: .authed, bearer: signedIn.accessToken)
        #expect(try await authed.value(.currentUser, as: User.self).email == "ada@example.com")
        _ = try await authed.value(.logout, as: KotlinUnit.self)
        await #expect(throws: KRPCTestTimeout.self) {
            _ = try await KRPCTestSession.open(port: port, mount: .authed, bearer: signedIn.accessToken)
        }
        await session.socket.close()
        await authed.socket.close()
    }

    @Test func loginIsRateLimited() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs) { $0.krpc.loginAttemptsPerMinute = 3 }
        defer { Task { await server.stop() } }
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let wrong = try request(LoginRequest(email: "ada@example.com", password: "wrong-password"))
        for _ in 0..<3 { #expect(try await session.result(.login, wrong, as: AuthSession.self).error?.kind == .authInvalidCredentials) }
        let limited = try await session.result(.login, wrong, as: AuthSession.self)
        #expect(limited.error?.kind == .authRateLimited)
        #expect((limited.error?.retryAfterSeconds ?? 0) >= 1)
        #expect(!logs.text.contains("wrong-password"))
        await session.socket.close()
    }

    @Test func refreshRotatesWithAGraceWindow() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let first = try await KRPCTestServer.login(port: port)
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let rotated = try await session.value(.refreshSession, request(RefreshRequest(refreshToken: first.refreshToken)), as: AuthSession.self)
        #expect(rotated.refreshToken != first.refreshToken && rotated.sessionId == first.sessionId)
        // The lost-response case: the old token again, within the grace window.
        let again = try await session.value(.refreshSession, request(RefreshRequest(refreshToken: first.refreshToken)), as: AuthSession.self)
        #expect(again.refreshToken != rotated.refreshToken)
        #expect(again.refreshTokenExpiresAt == rotated.refreshTokenExpiresAt, "a grace re-rotation keeps the expiry (§6.4)")
        let superseded = try await session.result(.refreshSession, request(RefreshRequest(refreshToken: rotated.refreshToken)),
                                                  as: AuthSession.self)
        #expect(superseded.error?.kind == .authInvalidRefreshToken && superseded.error?.familyRevoked == false)
        _ = try await session.value(.refreshSession, request(RefreshRequest(refreshToken: again.refreshToken)), as: AuthSession.self)
        #expect(server.requestCount("AuthServicePublic.refreshSession") == 4)
        await session.socket.close()
    }

    @Test func aReplayOutsideTheGraceWindowRevokesTheFamily() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs) { $0.krpc.refreshReuseGrace = 0 }
        defer { Task { await server.stop() } }
        let first = try await KRPCTestServer.login(port: port)
        let session = try await KRPCTestSession.open(port: port, mount: .public)
        let rotated = try await session.value(.refreshSession, request(RefreshRequest(refreshToken: first.refreshToken)), as: AuthSession.self)
        try await Task.sleep(for: .milliseconds(20))
        let replay = try await session.result(.refreshSession, request(RefreshRequest(refreshToken: first.refreshToken)), as: AuthSession.self)
        #expect(replay.error?.kind == .authInvalidRefreshToken && replay.error?.familyRevoked == true)
        let after = try await session.result(.refreshSession, request(RefreshRequest(refreshToken: rotated.refreshToken)), as: AuthSession.self)
        #expect(after.error?.familyRevoked == false)
        await #expect(throws: KRPCTestTimeout.self) {
            _ = try await KRPCTestSession.open(port: port, mount: .authed, bearer: rotated.accessToken)
        }
        await session.socket.close()
    }

    @Test func pullDomainPagesWithTheFullLastPageQuirk() async throws {
        let (server, port) = try await KRPCTestServer.start(books: 4, logs: logs)
        defer { Task { await server.stop() } }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        var since: Int64 = 0
        var pages: [SyncPage] = []
        repeat {
            pages.append(try await session.value(.pullDomain, KRPCTestSession.arguments(PullDomainArguments(domain: "books", since: since, limit: 2)),
                                                 as: SyncPage.self))
            since = pages.last?.nextCursor ?? since
        } while pages.last?.hasMore == true && pages.count < 10
        #expect(pages.map(\.items.count) == [2, 2, 0])
        #expect(pages.map(\.hasMore) == [true, true, false])
        #expect(pages.last?.nextCursor == nil)
        let books = try pages.flatMap { try $0.decodeItems(as: BookSyncPayload.self) }
        #expect(books.map(\.id) == (1...4).map { "book-" + String(format: "%021d", $0) })
        #expect(books.allSatisfy { $0.cover != nil && !$0.chapters.isEmpty && $0.audioFiles.count >= 2 && $0.deletedAt == nil })
        #expect(!(pages.first?.items.first?.contains("\"type\"") ?? true), "items carry no type key")

        server.deleteBook(id: books[0].id)
        let tail = try await session.value(.pullDomain, KRPCTestSession.arguments(PullDomainArguments(domain: "books", since: since, limit: 0)),
                                           as: SyncPage.self)
        #expect(tail.items.count == 1, "limit 0 is clamped to 1")
        #expect(try tail.decodeItems(as: BookSyncPayload.self).first?.deletedAt != nil)
        let digest = try await session.value(.digest, KRPCTestSession.arguments(DigestArguments(domain: "books", cursor: 1000)),
                                             as: DomainDigest.self)
        #expect(digest.count == 3 && digest.hash.hasPrefix("sha256:"))
        let unknown = try await session.result(.pullDomain, KRPCTestSession.arguments(PullDomainArguments(domain: "nope", since: 0)),
                                               as: SyncPage.self)
        #expect(unknown.error?.kind == .syncUnknownDomain)
        await session.socket.close()
    }

    @Test func observeEventsSendsTheHelloThenLiveEvents() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        let hello = try await session.call(.observeEvents, #"{"sinceRevision":5}"#)
        guard case .streamMessage(let first) = hello else { Issue.record("got \(hello)"); return }
        #expect(first.flowId == "1")
        #expect(first.data == #"{"type":"RpcEvent.Data","value":{"domain":"control","json":"{\"type\":\"SyncControl.Heartbeat\"}"}}"#)

        server.updateBook(id: "book-000000000000000000002", title: "The Renamed Book")
        guard case .streamMessage(let live) = try await session.socket.nextMessage() else { Issue.record("no live event"); return }
        guard case .data(let frame) = try RpcEvent<SyncFrame>.decode(from: live.data) else { Issue.record("not data"); return }
        // The first write after the seeded rows (5 books, their contributors and series, the shelves).
        let next = Int64(5 + server.contributorIDs.count + server.seriesIDs.count + server.shelfRowCount + 1)
        #expect(frame.domain == "books" && frame.revision == next)
        let event = try frame.event(as: BookSyncPayload.self)
        #expect(event.change == .updated(try #require(event.payload)) && event.payload?.title == "The Renamed Book")
        #expect(event.payload?.revision == next)
        await session.socket.close()
    }

    @Test func aCursorBelowTheRetainedTailIsStale() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs) { $0.krpc.eventRetention = 2 }
        defer { Task { await server.stop() } }
        for title in ["One", "Two", "Three"] { server.updateBook(id: "book-000000000000000000001", title: title) }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        let reply = try await session.call(.observeEvents, #"{"sinceRevision":5}"#)
        guard case .streamMessage(let stale) = reply else { Issue.record("got \(reply)"); return }
        guard case .data(let frame) = try RpcEvent<SyncFrame>.decode(from: stale.data) else { Issue.record("not data"); return }
        // The seeded rows (5 books, their contributors and series, the shelves), then three writes, the last two retained.
        let floor = Int64(5 + server.contributorIDs.count + server.seriesIDs.count + server.shelfRowCount + 2)
        #expect(try frame.control() == .cursorStale(lastKnownRevision: floor))
        guard case .streamFinished = try await session.socket.nextMessage() else { Issue.record("no StreamFinished"); return }
        // From the floor: the hello, then the two retained writes.
        _ = try await session.call(.observeEvents, #"{"sinceRevision":\#(floor)}"#)
        guard case .streamMessage(let replayed) = try await session.socket.nextMessage() else { Issue.record("no replay"); return }
        #expect(try RpcEvent<SyncFrame>.decode(from: replayed.data) != .complete)
        await session.socket.close()
    }

    @Test func preparedURLsPlayWithRangeAndRefuseTampering() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let (session, auth) = try await KRPCTestServer.authed(port: port)
        let bookID = "book-000000000000000000003"
        let prepared = try await session.value(.prepare, KRPCTestSession.arguments(PrepareArguments(bookId: bookID)), as: PreparedPlayback.self)
        #expect(prepared.resumePosition == nil && !prepared.transcodeUnavailable)
        let file = try #require(prepared.audioFiles.first)
        #expect(file.url.hasPrefix("/api/v1/audio/\(bookID)/\(file.fileId)?u=\(auth.user.id)&exp="))
        let ranged = try await KRPCTestHTTP.request(port: port, path: file.url, headers: [("Range", "bytes=0-99")])
        #expect(ranged.status == 206 && ranged.body.count == 100)
        #expect(ranged.headers.first(name: "Content-Range") == "bytes 0-99/\(file.sizeBytes)")
        #expect(Array(ranged.body.prefix(4)) == Array("RIFF".utf8))
        let tampered = file.url.dropLast() + (file.url.hasSuffix("0") ? "1" : "0")
        let refused = try await KRPCTestHTTP.request(port: port, path: String(tampered), headers: [("Range", "bytes=0-99")])
        #expect(refused.status == 403 && refused.body.isEmpty)
        let beyond = try await KRPCTestHTTP.request(port: port, path: file.url, headers: [("Range", "bytes=\(file.sizeBytes)-")])
        #expect(beyond.status == 416)

        let coverURL = try #require(prepared.coverUrl)
        let cast = try await KRPCTestHTTP.request(port: port, path: coverURL)
        #expect(cast.status == 200 && cast.headers.first(name: "Content-Type") == "image/png")
        let coverPath = "/api/v1/covers/\(bookID)"
        #expect(try await KRPCTestHTTP.request(port: port, path: coverPath).status == 401)
        let cover = try await KRPCTestHTTP.request(port: port, path: coverPath, headers: [("Authorization", "Bearer \(auth.accessToken)")])
        let etag = try #require(cover.headers.first(name: "ETag"))
        let book = try await session.value(.getBook, #"{"id":"\#(bookID)"}"#, as: BookSyncPayload.self)
        #expect(etag == "\"\(book.cover?.hash ?? "")\"")
        let cached = try await KRPCTestHTTP.request(port: port, path: coverPath,
                                                    headers: [("Authorization", "Bearer \(auth.accessToken)"), ("If-None-Match", etag)])
        #expect(cached.status == 304)
        let sized = try await KRPCTestHTTP.request(port: port, path: coverPath + "?w=350", headers: [("Authorization", "Bearer \(auth.accessToken)")])
        #expect(sized.headers.first(name: "ETag") == "\"\(book.cover?.hash ?? "")@600\"")
        await session.socket.close()
    }

    @Test func listeningEventsAreIdempotentAndPositionsLastPlayedWins() async throws {
        let (server, port) = try await KRPCTestServer.start(logs: logs)
        defer { Task { await server.stop() } }
        let (session, _) = try await KRPCTestServer.authed(port: port)
        let bookID = "book-000000000000000000001"
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(try await session.value(.getPosition, #"{"bookId":"\#(bookID)"}"#, as: PlaybackPositionSyncPayload?.self) == nil)
        // `currentChapterId` is nullable without a default: the key is required.
        let noChapter = #"{"request":{"bookId":"\#(bookID)","positionMs":1,"lastPlayedAt":1,"finished":false,"playbackSpeed":1.0}}"#
        guard case .callException(let missing) = try await session.call(.recordPosition, noChapter, serviceId: 2) else {
            Issue.record("a missing currentChapterId was accepted")
            return
        }
        #expect(missing.cause.className == "kotlinx.serialization.MissingFieldException" && missing.serviceId == nil)
        let event = RecordListeningEventRequest(id: UUID().uuidString, bookId: bookID, startPositionMs: 1000, endPositionMs: 3000,
                                                startedAt: now - 2000, endedAt: now, playbackSpeed: 1.25, tz: "Europe/Berlin", deviceLabel: nil)
        let stored = try await session.value(.recordListeningEvent, request(event), as: ListeningEventSyncPayload.self)
        let repeated = try await session.value(.recordListeningEvent, request(event), as: ListeningEventSyncPayload.self)
        #expect(stored == repeated && stored.tz == "Europe/Berlin")
        #expect(server.acceptedListeningEvents.count == 1)
        var backwards = event
        backwards.id = UUID().uuidString
        backwards.endPositionMs = 1000
        let refused = try await session.result(.recordListeningEvent, request(backwards), as: ListeningEventSyncPayload.self)
        #expect(refused.error?.kind == .validationError)

        let position = RecordPositionRequest(bookId: bookID, positionMs: 2500, lastPlayedAt: now + 10, finished: false,
                                             playbackSpeed: 1.25, currentChapterId: "\(bookID)-ch2")
        let saved = try await session.value(.recordPosition, request(position), as: PlaybackPositionSyncPayload.self)
        #expect(saved.positionMs == 2500 && saved.currentChapterId == "\(bookID)-ch2")
        var older = position
        older.positionMs = 100
        older.lastPlayedAt = now - 60_000
        #expect(try await session.value(.recordPosition, request(older), as: PlaybackPositionSyncPayload.self) == saved)
        let recent = try await session.value(.getRecentlyListened, #"{"limit":20}"#, as: [PlaybackPositionSyncPayload].self)
        #expect(recent.map(\.bookId) == [bookID])
        await session.socket.close()
    }
}
