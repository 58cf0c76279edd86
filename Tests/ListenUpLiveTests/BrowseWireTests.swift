import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import ServerSentEvents
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The browse domains on the wire: kRPC pages mapped with the books' rules,
/// kRPC domain events as the app's live events, and servers whose
/// rows lack a required key (a protocol mismatch, never a crash).
@Suite("Browse domains on the wire")
struct BrowseWireTests {
    let logs = LogCapture()
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux")
    static let time: Int64 = 1_787_300_000_000

    static func person(_ id: String, revision: Int64, deleted: Bool = false) -> ContributorSyncPayload {
        ContributorSyncPayload(id: id, name: "Person \(id)", sortName: "\(id), Person", revision: revision, updatedAt: time + revision,
                               createdAt: time, deletedAt: deleted ? time + revision : nil, description: "<p>Bio</p>",
                               imagePath: "contributors/\(id)/abc.jpg")
    }

    // MARK: kRPC pages

    @Test func aContributorsPageMapsRowsTombstonesAndTheCursorAsBooksDo() throws {
        let page = try Canned.page("contributors", [Self.person("c1", revision: 4), Self.person("c2", revision: 9, deleted: true)],
                                   hasMore: true, cursor: 9)
        let rows = try KRPCMapping.contributorsPage(page, since: 3)
        #expect(rows.entities == [Contributor(id: "c1", name: "Person c1", sortName: "c1, Person", description: "<p>Bio</p>",
                                              imagePath: "contributors/c1/abc.jpg", updatedAt: KRPCMapping.date(Self.time + 4))])
        #expect(rows.deletedIDs == ["c2"] && rows.nextCursor == "rev:9" && rows.hasMore)
        // hasMore without a cursor, or an empty page, is the last page; the
        // cursor stays where the page started.
        let odd = SyncPage(domain: "contributors", items: page.items, nextCursor: nil, hasMore: true)
        #expect(try KRPCMapping.contributorsPage(odd, since: 3).hasMore == false)
        let empty = try KRPCMapping.contributorsPage(SyncPage(domain: "contributors", items: [], nextCursor: nil, hasMore: true), since: 12)
        #expect(empty == EntityPage(entities: [], nextCursor: "rev:12", hasMore: false))
    }

    @Test func aSeriesPageMapsSortNameAndCover() throws {
        let row = SeriesSyncPayload(id: "s1", name: "The Expanse", sortName: "Expanse, The", revision: 5, updatedAt: Self.time,
                                    createdAt: Self.time, coverPath: "series/s1/def.jpg")
        let rows = try KRPCMapping.seriesPage(try Canned.page("series", [row], hasMore: false, cursor: 5), since: 0)
        #expect(rows == EntityPage(entities: [Series(id: "s1", name: "The Expanse", sortName: "Expanse, The", coverPath: "series/s1/def.jpg",
                                                     updatedAt: KRPCMapping.date(Self.time))],
                                   nextCursor: "rev:5", hasMore: false))
    }

    @Test func syncBrowseAsksPullDomainFromTheCursorsRevision() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "pullDomain" else { return }
            switch exchange.argument("domain") {
            case "contributors": try await exchange.success(try Canned.page("contributors", [Self.person("c7", revision: 41)],
                                                                             hasMore: false, cursor: 41))
            case "series": try await exchange.success(try Canned.page("series", [SeriesSyncPayload](), hasMore: false, cursor: nil))
            default: return
            }
        }
        defer { Task { await server.stop() } }
        let client = KRPCServerConnection(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                                          sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let people = try await withDeadline { try await client.syncBrowse(.contributors, limit: 100_000, cursor: "rev:40", updatedAfter: nil) }
        guard case .contributors(let page) = people else { Issue.record("not contributors: \(people)"); return }
        #expect(page.entities.map(\.id) == ["c7"] && page.nextCursor == "rev:41" && !page.hasMore)
        let series = try await withDeadline { try await client.syncBrowse(.series, limit: 0, cursor: nil, updatedAfter: Date()) }
        #expect(series == .series(EntityPage(entities: [], nextCursor: "rev:0", hasMore: false)))
        let asked = server.calls.filter { $0.method == "pullDomain" }.map(\.data.data)
        #expect(asked.count == 2)
        #expect(asked.first?.contains(#""since":40"#) == true && asked.first?.contains(#""limit":5000"#) == true, "clamped, from rev 40")
        #expect(asked.last?.contains(#""since":0"#) == true && asked.last?.contains(#""limit":1"#) == true)
    }

    @Test(arguments: ["contributors", "series"])
    func aKRPCRowWithoutANameIsAProtocolMismatch(_ domain: String) async throws {
        let broken = #"{"id":"x1","sortName":null,"revision":3,"updatedAt":1787300000000,"createdAt":1787300000000,"deletedAt":null}"#
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "pullDomain" else { return }
            try await exchange.success(SyncPage(domain: domain, items: [broken], nextCursor: 3, hasMore: false))
        }
        defer { Task { await server.stop() } }
        let client = KRPCServerConnection(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                                          sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        let outcome: Result<BrowseRows, ServerError> = try await withDeadline {
            do throws(ServerError) {
                return .success(try await client.syncBrowse(domain == "series" ? .series : .contributors, limit: 50, cursor: nil,
                                                            updatedAfter: nil))
            } catch {
                return .failure(error)
            }
        }
        guard case .failure(.protocolMismatch(let reason)) = outcome else {
            Issue.record("expected a protocol mismatch, got \(outcome)")
            return
        }
        #expect(reason.contains("name"), "\(reason)")
    }

    // MARK: REST v1

    /// A REST server answering `/api/v1/sync/<domain>` with `data`.
    private func restClient(answering data: String) async throws -> (HostileServer, APIClient) {
        let body = Data(#"{"v":1,"success":true,"data":\#(data)}"#.utf8)
        let server = try await HostileServer.start { request in
            request.path.hasPrefix("/api/v1/sync/") ? .respond(status: 200, contentType: "application/json", body: body)
                : .respond(status: 404, contentType: "text/plain", body: Data("404 page not found\n".utf8))
        }
        let client = APIClient(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                               sessions: .inMemory(), deviceInfo: Self.device, logger: logs.logger)
        return (server, client)
    }

    @Test func restPagesMapTheGoServersKeys() async throws {
        let (server, client) = try await restClient(answering: """
            {"next_cursor":"NA==","contributors":[{"id":"c1","name":"Ursula K. Le Guin","sort_name":"Le Guin, Ursula K.",\
            "biography":"<p>Bio</p>","image_url":"/api/v1/contributors/c1/image","aliases":["U. K. L."],"asin":"B000",\
            "created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:06.5Z"},\
            {"id":"c2","name":"Don Leslie","sort_name":"","created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"}],\
            "deleted_contributor_ids":["c0"],"has_more":true}
            """)
        defer { Task { await server.stop() } }
        let rows = try await client.syncBrowse(.contributors, limit: 2, cursor: "Mg==", updatedAfter: Date(timeIntervalSince1970: 0))
        let updated = try #require(RFC3339.date(from: "2026-01-02T03:04:06.5Z")), created = try #require(RFC3339.date(from: "2026-01-02T03:04:05Z"))
        #expect(rows == .contributors(EntityPage(
            entities: [Contributor(id: "c1", name: "Ursula K. Le Guin", sortName: "Le Guin, Ursula K.", description: "<p>Bio</p>",
                                   imagePath: "/api/v1/contributors/c1/image#1767323046", updatedAt: updated),
                       Contributor(id: "c2", name: "Don Leslie", updatedAt: created)],
            deletedIDs: ["c0"], nextCursor: "NA==", hasMore: true)))
        let request = try #require(server.requests.last)
        #expect(request.path == "/api/v1/sync/contributors?limit=2&cursor=Mg%3D%3D&updated_after=1970-01-01T00%3A00%3A00Z")
        #expect(request.header("Authorization") == "Bearer \(Canned.storedSession(server.baseURL).accessToken)")
    }

    @Test func restSeriesPagesMapWithoutSortNameOrCover() async throws {
        let (server, client) = try await restClient(answering: """
            {"series":[{"id":"s1","name":"The Expanse","description":"Nine books.","cover_image":{"path":"/m/s1.jpg",\
            "filename":"s1.jpg","format":"image/jpeg","size":10,"inode":0,"mod_time":0},"asin":"B01",\
            "created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"}],"has_more":false}
            """)
        defer { Task { await server.stop() } }
        let rows = try await client.syncBrowse(.series, limit: 50, cursor: nil, updatedAfter: nil)
        let time = try #require(RFC3339.date(from: "2026-01-02T03:04:05Z"))
        #expect(rows == .series(EntityPage(entities: [Series(id: "s1", name: "The Expanse", description: "Nine books.", updatedAt: time)])))
        #expect(server.requests.last?.path == "/api/v1/sync/series?limit=50")
    }

    @Test(arguments: [
        (BrowseDomain.contributors, #"{"contributors":[{"id":"c1","created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"}],"has_more":false}"#),
        (BrowseDomain.series, #"{"series":[{"id":"s1","name":"S","created_at":"2026-01-02T03:04:05Z"}],"has_more":false}"#),
        (BrowseDomain.series, #"{"series":[],"deleted_series_ids":["s1"]}"#),
        (BrowseDomain.contributors, #"{"series":[],"has_more":false}"#),
    ])
    func aRESTPageLackingARequiredKeyIsAProtocolMismatch(_ domain: BrowseDomain, _ data: String) async throws {
        let (server, client) = try await restClient(answering: data)
        defer { Task { await server.stop() } }
        do {
            let rows = try await client.syncBrowse(domain, limit: 50, cursor: nil, updatedAfter: nil)
            Issue.record("decoded \(rows)")
        } catch {
            guard case .protocolMismatch = error else {
                Issue.record("expected a protocol mismatch, got \(error)")
                return
            }
        }
    }

    // MARK: Live events

    private static func frame(_ domain: String, _ json: String) -> SyncFrame {
        SyncFrame(domain: domain, revision: 12, json: json)
    }

    private static func translated(_ frame: SyncFrame) -> [LibraryEvent] {
        guard case .emit(let events) = KRPCLiveEvents.translate(frame, duration: { _ in nil }) else { return [] }
        return events
    }

    @Test func contributorAndSeriesEventsAskForADeltaSync() throws {
        let person = try KRPCJSON.encode(Self.person("c1", revision: 12))
        let tombstone = try KRPCJSON.encode(Self.person("c2", revision: 12, deleted: true))
        let series = try KRPCJSON.encode(SeriesSyncPayload(id: "s1", name: "S", sortName: nil, revision: 12, updatedAt: Self.time,
                                                           createdAt: Self.time))
        let cases: [SyncFrame] = [
            Self.frame("contributors", #"{"type":"SyncEvent.Created","id":"c1","revision":12,"occurredAt":1,"payload":\#(person)}"#),
            Self.frame("contributors", #"{"type":"SyncEvent.Updated","id":"c1","revision":12,"occurredAt":1,"payload":\#(person)}"#),
            Self.frame("contributors", #"{"type":"SyncEvent.Updated","id":"c2","revision":12,"occurredAt":1,"payload":\#(tombstone)}"#),
            Self.frame("contributors", #"{"type":"SyncEvent.Deleted","id":"c3","revision":12,"occurredAt":1}"#),
            Self.frame("series", #"{"type":"SyncEvent.Updated","id":"s1","revision":12,"occurredAt":1,"payload":\#(series)}"#),
            Self.frame("series", #"{"type":"SyncEvent.Deleted","id":"s/2","revision":12,"occurredAt":1}"#),
        ]
        for frame in cases {
            // Created, updated or deleted alike: the browse domains changed, a delta sync brings them.
            #expect(Self.translated(frame) == [.needsDeltaSync], "\(frame.json)")
        }
        #expect(Self.translated(Self.frame("series", #"{"type":"SyncEvent.Renamed","id":"s1","revision":12,"occurredAt":1}"#)).isEmpty,
                "an event type this build does not know is skipped")
        #expect(Self.translated(Self.frame("series", #"{"type":"SyncEvent.Updated","id":"s1","revision":12,"occurredAt":1,"payload":{}}"#))
            .isEmpty, "an unreadable row is skipped; the next sync brings it")
        #expect(Self.translated(Self.frame("collection_shares", #"{"type":"SyncEvent.Deleted","id":"g1","revision":12,"occurredAt":1}"#)).isEmpty,
                "a domain the library does not keep is skipped")
    }
}
