import Foundation
import Testing
@testable import ListenUpAPI

/// Every fixture (real response bodies of the ListenUp server) decodes, or is
/// refused, exactly as the contract says.
@Suite("Contract fixtures")
struct FixtureTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    static func decode<T: Decodable>(_ name: String, as type: T.Type) throws -> APIEnvelope<T> {
        try APIEnvelope.decode(try fixture(name), as: T.self)
    }

    static func payload<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        guard case .success(let value?) = try decode(name, as: T.self) else {
            Issue.record("\(name): not a success with data")
            throw CocoaError(.coderValueNotFound)
        }
        return value
    }

    @Test func everyJSONFixtureEndsWithANewlineAndIsAnEnvelope() throws {
        let dir = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        #expect(names.count == 22)
        for name in names {
            let data = try Self.fixture(name)
            #expect(data.last == UInt8(ascii: "\n"), "\(name)")
            // Every fixture is at least a valid envelope (payload type aside).
            _ = try APIEnvelope.decode(data, as: IgnoredPayload.self)
        }
    }

    @Test func instance() throws {
        let instance = try Self.payload("instance.json", as: InstanceResponse.self)
        #expect(instance.id == "lib-CtCtqA_1YCrctMg6zrra6")
        #expect(instance.version == "")
        #expect(instance.remoteURL == "https://listen.example.com")
        #expect(!instance.setupRequired)
        #expect(RFC3339.string(from: instance.createdAt).hasPrefix("2026-04-28T16:20:05.11827"))
        let fresh = try Self.payload("instance_setup_required.json", as: InstanceResponse.self)
        #expect(fresh.setupRequired)
        #expect(fresh.remoteURL == nil)
        #expect(fresh.localURL == "")
    }

    @Test func loginAndRefresh() throws {
        let login = try Self.payload("auth_login_success.json", as: AuthResponse.self)
        #expect(login.tokenType == "Bearer")
        #expect(login.expiresIn == 2_592_000)
        #expect(login.refreshToken.count == 44)
        #expect(login.sessionID.hasPrefix("session-"))
        #expect(login.user.displayName == "Alice Nakamura")
        #expect(login.user.isRoot)
        #expect(login.user.avatarValue == nil)
        let refreshed = try Self.payload("auth_refresh_success.json", as: AuthResponse.self)
        #expect(refreshed.sessionID == login.sessionID)
        #expect(refreshed.accessToken != login.accessToken)
        #expect(refreshed.refreshToken != login.refreshToken)
        #expect(try Self.payload("auth_logout_success.json", as: MessageResponse.self).message == APIMessage.loggedOut)
    }

    @Test(arguments: [
        ("auth_login_invalid_credentials_401.json", APIMessage.invalidCredentials),
        ("auth_login_missing_device_info_400.json", APIMessage.deviceInfoRequired),
        ("auth_rate_limited_429.json", APIMessage.rateLimited),
        ("auth_refresh_invalid_401.json", APIMessage.invalidRefreshToken),
        ("auth_setup_already_configured_409.json", APIMessage.alreadyConfigured),
        ("error_unauthenticated_401.json", APIMessage.authenticationRequired),
        ("error_not_found_404.json", APIMessage.notFound),
        ("error_internal_500_progress_not_started.json", APIMessage.unexpected),
    ])
    func errorsCarryTheirMessage(_ name: String, _ message: String) throws {
        #expect(try Self.decode(name, as: AuthResponse.self) == .failure(APIFailure(message: message)))
    }

    @Test func validationErrorsEchoTheBody() throws {
        guard case .failure(let failure) = try Self.decode("error_validation_422.json", as: AuthResponse.self) else {
            Issue.record("not a failure")
            return
        }
        #expect(failure.message.contains("expected required property password to be present"))
        #expect(failure.code == nil)
    }

    @Test func syncBooks() throws {
        let page = try Self.payload("sync_books_page1.json", as: SyncBooksResponse.self)
        #expect(page.nextCursor == "Mw==")
        #expect(page.hasMore)
        #expect(page.books.count == 3)
        let first = page.books[0]
        #expect(first.title == "The Cartographer's Daughter")
        #expect(first.names(withRole: "author") == ["Ingrid Solberg"])
        #expect(first.contributors.first { $0.name == "Paul Whitcombe" }?.roles == ["translator", "introduction"])
        #expect(first.coverImage?.format == "image/jpeg")
        #expect(first.chapters?.count == 5)
        let interlude = page.books[1]
        #expect(interlude.seriesInfo?.first?.sequence == "1.5")
        #expect(interlude.audioFiles.count == 3)
        #expect(page.books[2].title == "夜明け前の図書館")
    }

    @Test func booksListAndLibraryStatusAndProgress() throws {
        let first = try Self.payload("books_list_page1.json", as: ListBooksResponse.self)
        #expect(first.total == 5 && first.nextCursor == "Mw==")
        #expect(first.items.count == 3)
        #expect(first.items.allSatisfy { $0.contributors.isEmpty }, "the server never loads contributors here")
        #expect(first.items.allSatisfy { $0.series == nil && $0.genreIDs == nil })
        #expect(try Self.payload("books_list_last_page.json", as: ListBooksResponse.self).nextCursor == nil)
        let status = try Self.payload("library_status.json", as: LibraryStatus.self)
        #expect(status.exists && status.library != nil)
        let none = try Self.payload("library_status_no_library.json", as: LibraryStatus.self)
        #expect(none.library == nil && none.needsSetup)
        let progress = try Self.payload("book_progress.json", as: ProgressResponse.self)
        #expect(progress.bookID == "book-Bu1tQMQwEpJUQEfwW4b7j")
        #expect(progress.progress > 0 && progress.progress < 1)
    }
}

/// Any `data` at all.
struct IgnoredPayload: Decodable {
    init(from decoder: any Decoder) throws {}
}

@Suite("Envelope and wire format")
struct EnvelopeTests {
    static let hostile: [(String, EnvelopeDecodingError)] = [
        ("<!doctype html><html><body>Router login</body></html>", .notJSON),
        ("404 page not found\n", .notJSON),
        ("", .notJSON),
        (#"{"v":1,"success":true,"data":{"id":"lib-"#, .notJSON),
        (#"{"success":true,"data":{}}"#, .missingVersion),
        (#"{"v":"1","success":true,"data":{}}"#, .missingVersion),
        (#"{"v":2,"success":true,"data":{}}"#, .unsupportedVersion(2)),
        (#"{"v":0,"success":false,"error":"x"}"#, .unsupportedVersion(0)),
        (#"{"v":1,"status":"ok"}"#, .notAnEnvelope),
        ("[1,2,3]", .notJSON),
    ]

    @Test(arguments: hostile.indices)
    func hostileBodiesAreRefused(_ index: Int) {
        let (body, expected) = Self.hostile[index]
        #expect(throws: expected) { try APIEnvelope.decode(Data(body.utf8), as: InstanceResponse.self) }
    }

    @Test func aSuccessWithTheWrongShapeIsAPayloadMismatch() {
        #expect {
            try APIEnvelope.decode(Data(#"{"v":1,"success":true,"data":{"id":7}}"#.utf8), as: InstanceResponse.self)
        } throws: { error in
            if case .payloadMismatch = error as? EnvelopeDecodingError { true } else { false }
        }
    }

    @Test func theDetailedErrorShapeIsUnderstood() throws {
        let body = #"{"v":1,"code":"VALIDATION","message":"validation failed","details":{"name":"is required"}}"#
        let envelope = try APIEnvelope.decode(Data(body.utf8), as: InstanceResponse.self)
        #expect(envelope == .failure(APIFailure(message: "validation failed", code: "VALIDATION", details: #"{"name":"is required"}"#)))
    }

    @Test func requestsCarryExactlyTheKeysTheServerRequires() throws {
        func object(_ data: Data?) throws -> [String: Any] {
            let body = try #require(data)
            return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        }
        func keys(_ data: Data?) throws -> Set<String> { Set(try object(data).keys) }
        #expect(try keys(Endpoint.setup(SetupRequest(email: "a@b.co", password: "p", firstName: "A", lastName: "B")).body)
                == ["email", "password", "first_name", "last_name"])
        let login = Endpoint.login(LoginRequest(email: "a@b.co", password: "p", deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux")))
        #expect(try keys(login.body) == ["email", "password", "device_info"])
        let device = try object(login.body)["device_info"] as? [String: Any]
        #expect(device?.keys.sorted() == ["device_type", "platform"], "nil keys are omitted")
        #expect(try keys(Endpoint.logout(LogoutRequest(sessionID: "s")).body) == ["session_id"])
    }

    @Test func syncQueryEncodesOffsets() throws {
        let date = try #require(RFC3339.date(from: "2026-05-01T10:00:00+02:00"))
        let endpoint = Endpoint.syncBooks(limit: 500, cursor: "Mw==", updatedAfter: date)
        #expect(endpoint.path == "/api/v1/sync/books")
        #expect(endpoint.percentEncodedQuery == "limit=500&cursor=Mw%3D%3D&updated_after=2026-05-01T08%3A00%3A00Z")
        #expect(Endpoint.progress(bookID: "book/../x").path == "/api/v1/books/book%2F..%2Fx/progress")
    }

    @Test func envelopesAreWrittenLikeTheServer() throws {
        let body = try EnvelopeEncoder.success(MessageResponse(message: "a<b&c/d"))
        #expect(String(decoding: body, as: UTF8.self) == #"{"v":1,"success":true,"data":{"message":"a<b&c/d"}}"# + "\n")
        #expect(String(decoding: EnvelopeEncoder.failure("nope"), as: UTF8.self) == #"{"v":1,"success":false,"error":"nope"}"# + "\n")
    }

    @Test(arguments: [
        ("2026-04-28T16:20:05.118274301Z", 1_777_393_205.118274301),
        ("2026-05-01T08:00:12Z", 1_777_622_412.0),
        ("2026-05-01T10:00:12+02:00", 1_777_622_412.0),
        ("2026-05-01T08:00:12.5-00:30", 1_777_624_212.5),
    ])
    func rfc3339Times(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_01)
    }

    @Test func badTimesAreRefusedAndFormattingTrimsZeros() {
        for bad in ["2026-05-01", "2026-13-01T00:00:00Z", "2026-05-01T08:00:12", "2026-05-01T08:00:12.1234567891Z", "2026-05-01T08:00:12.Z"] {
            #expect(RFC3339.date(from: bad) == nil, "\(bad)")
        }
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_777_622_412.25)) == "2026-05-01T08:00:12.25Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_777_622_412)) == "2026-05-01T08:00:12Z")
    }
}
