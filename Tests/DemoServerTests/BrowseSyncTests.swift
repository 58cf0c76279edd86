import DemoServer
import Foundation
import ListenUpAPI
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import Testing

/// The browse domains (contributors, series) through the real clients
/// against the demo server on loopback, over both protocols: whole passes
/// over several pages, deltas after a rename and a deletion (the books
/// change too), and the live events that say so.
@Suite("Browse domains over both protocols")
struct BrowseSyncTests {
    let logs = LogCapture()
    static let email = "ada@example.com", password = "analytical-engine"
    static let device = DeviceInfo(deviceType: "desktop", platform: "Linux")

    /// A realistic library of `books` (contributors and series), served over
    /// `wire`, and a client signed in to it.
    func signedIn(_ wire: DemoProtocol, books: Int = 60, shelves: Int = 1) async throws -> (DemoServer, any ServerConnection) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.shelvesPerUser = shelves
        configuration.protocol = wire
        configuration.payload = .realistic
        configuration.admin = .init(email: Self.email, password: Self.password)
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        switch wire {
        case .rest:
            let login = APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                  logger: logs.logger)
            let session = try await login.login(email: Self.email, password: Self.password)
            return (server, APIClient(baseURL: url, session: session, transport: .live, sessions: .inMemory(), deviceInfo: Self.device,
                                      logger: logs.logger))
        case .krpc:
            let connection = KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                                                  deviceInfo: Self.device, logger: logs.logger)
            _ = try await connection.login(email: Self.email, password: Self.password)
            return (server, connection)
        }
    }

    /// What one pass over a domain brought.
    struct Pass {
        var contributors: [Contributor] = []
        var series: [Series] = []
        var deleted: [String] = []
        var pages = 0
        /// The last page's cursor (kRPC: where the next delta starts; REST: nil).
        var cursor: String?
        /// The newest change seen (REST's next `updated_after`).
        var newest: Date?
    }

    /// Pages through `domain` as the library's sync does: from `cursor`, or
    /// changes after `after`, until a page says there is no more.
    func pass(_ client: any ServerConnection, _ domain: BrowseDomain, limit: Int, cursor start: String? = nil,
              after: Date? = nil) async throws -> Pass {
        var result = Pass(newest: after)
        var cursor = start
        while true {
            let page = try await client.syncBrowse(domain, limit: limit, cursor: cursor, updatedAfter: after)
            result.pages += 1
            switch page {
            case .contributors(let rows):
                result.contributors += rows.entities
                result.deleted += rows.deletedIDs
            case .series(let rows):
                result.series += rows.entities
                result.deleted += rows.deletedIDs
            default:
                break
            }
            if let newest = page.newestUpdate { result.newest = max(result.newest ?? newest, newest) }
            guard page.hasMore, let next = page.nextCursor, result.pages < 1_000 else {
                result.cursor = page.nextCursor
                return result
            }
            cursor = next
        }
    }

    /// Every book, paging until the end; with `cursor`/`after`, a delta.
    func books(_ client: any ServerConnection, cursor start: String? = nil,
               after: Date? = nil) async throws -> (books: [ServerBook], cursor: String?, newest: Date?) {
        var books: [ServerBook] = [], cursor = start
        while true {
            let page = try await client.syncBooks(limit: 500, cursor: cursor, updatedAfter: after)
            books += page.books
            guard page.hasMore, let next = page.nextCursor else {
                return (books, page.nextCursor, books.map(\.updatedAt).max() ?? after)
            }
            cursor = next
        }
    }

    @Test(arguments: DemoProtocol.allCases)
    func aWholePassBringsEveryContributorAndSeriesTheBooksName(_ wire: DemoProtocol) async throws {
        let (server, client) = try await signedIn(wire)
        defer { Task { await server.stop() } }
        let books = try await books(client).books
        #expect(books.count == 60)

        let people = try await pass(client, .contributors, limit: 4)
        #expect(people.pages >= 3, "several pages")
        #expect(people.deleted.isEmpty)
        #expect(people.contributors.map(\.id) == server.contributorIDs, "each once, in the server's order")
        let credited = Dictionary(books.flatMap(\.contributors).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(people.contributors.map(\.id)) == Set(credited.keys), "the ids the books link to")
        for person in people.contributors {
            #expect(person.name == credited[person.id])
            #expect(person.sortName?.hasSuffix(", " + (person.name.split(separator: " ").dropLast().joined(separator: " "))) == true,
                    "\(person.sortName ?? "nil") for \(person.name)")
            #expect(person.description?.hasPrefix("<p>") == true)
        }

        let series = try await pass(client, .series, limit: 2)
        #expect(series.pages >= 3, "several pages")
        #expect(series.series.map(\.id) == server.seriesIDs)
        let named = Dictionary(books.flatMap(\.series).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        #expect(series.series.count == 6 && Set(series.series.map(\.id)) == Set(named.keys))
        for row in series.series {
            #expect(row.name == named[row.id])
            #expect(row.description?.contains(row.name) == true)
            // REST v1 has no sort name for a series; kRPC's moves the article.
            #expect(row.sortName == (wire == .rest ? nil : String(row.name.dropFirst(4)) + ", The"))
        }
    }

    @Test(arguments: DemoProtocol.allCases)
    func aDeltaAfterARenameBringsTheRenamedRowAndItsBooks(_ wire: DemoProtocol) async throws {
        let (server, client) = try await signedIn(wire)
        defer { Task { await server.stop() } }
        let before = try await books(client)
        let people = try await pass(client, .contributors, limit: 5)
        let series = try await pass(client, .series, limit: 5)
        let seriesID = try #require(series.series.last?.id), personID = try #require(people.contributors.first?.id)

        #expect(server.renameSeries(id: seriesID, to: "The Renamed Saga"))
        #expect(server.renameContributor(id: personID, to: "Renée Q. Renamed"))
        #expect(!server.renameSeries(id: "series-nope", to: "x") && !server.renameContributor(id: "nope", to: "x"))

        // REST's delta may bring back the newest row unchanged (a time read
        // back from the wire can be a hair early): only the renamed one changed.
        func changed<Row: Equatable & Identifiable>(_ rows: [Row], from old: [Row]) -> [Row] {
            rows.filter { row in !old.contains(row) }
        }
        let seriesDelta = try await pass(client, .series, limit: 5, cursor: series.cursor, after: series.newest)
        #expect(changed(seriesDelta.series, from: series.series).map(\.id) == [seriesID])
        #expect(seriesDelta.series.first { $0.id == seriesID }?.name == "The Renamed Saga")
        #expect(seriesDelta.series.count <= (wire == .rest ? 2 : 1), "\(seriesDelta.series.map(\.id))")
        #expect(seriesDelta.deleted.isEmpty)
        let peopleDelta = try await pass(client, .contributors, limit: 5, cursor: people.cursor, after: people.newest)
        #expect(changed(peopleDelta.contributors, from: people.contributors).map(\.id) == [personID])
        let renamed = try #require(peopleDelta.contributors.first { $0.id == personID })
        #expect(renamed.name == "Renée Q. Renamed" && renamed.sortName == "Renamed, Renée Q.")
        #expect(peopleDelta.contributors.count <= (wire == .rest ? 2 : 1))

        // The books in the series and those crediting the person changed too.
        let delta = try await books(client, cursor: before.cursor, after: before.newest).books
        let inSeries = Set(before.books.filter { $0.series.contains { $0.id == seriesID } }.map(\.id))
        let credited = Set(before.books.filter { $0.contributors.contains { $0.id == personID } }.map(\.id))
        #expect(inSeries.count == 10 && !credited.isEmpty)
        #expect(inSeries.union(credited).isSubset(of: Set(delta.map(\.id))))
        for book in delta where inSeries.contains(book.id) {
            #expect(book.series.first?.name == "The Renamed Saga")
            #expect(book.updatedAt > (before.newest ?? .distantFuture))
        }
        for book in delta where credited.contains(book.id) {
            #expect(book.contributors.first { $0.id == personID }?.name == "Renée Q. Renamed")
            // REST's `author`/`narrator` strings follow (kRPC books have none).
            let roles = book.contributors.first { $0.id == personID }?.roles ?? []
            if wire == .rest, roles.contains("author") { #expect(book.author?.contains("Renée Q. Renamed") == true) }
            if wire == .rest, roles.contains("narrator") { #expect(book.narrator?.contains("Renée Q. Renamed") == true) }
        }
    }

    @Test(arguments: DemoProtocol.allCases)
    func aDeletedSeriesComesBackAsADeletedIDAndItsBooksLeaveIt(_ wire: DemoProtocol) async throws {
        let (server, client) = try await signedIn(wire)
        defer { Task { await server.stop() } }
        let before = try await books(client)
        let series = try await pass(client, .series, limit: 4)
        let gone = try #require(series.series.first?.id)
        #expect(server.deleteSeries(id: gone))
        #expect(!server.deleteSeries(id: gone), "once")

        let delta = try await pass(client, .series, limit: 4, cursor: series.cursor, after: series.newest)
        #expect(delta.deleted == [gone])
        #expect(delta.series.allSatisfy { series.series.contains($0) }, "no row changed")
        #expect(!server.seriesIDs.contains(gone))
        let books = try await books(client, cursor: before.cursor, after: before.newest).books
        let members = before.books.filter { $0.series.contains { $0.id == gone } }.map(\.id)
        #expect(members.count == 10 && Set(members).isSubset(of: Set(books.map(\.id))))
        #expect(books.filter { members.contains($0.id) }.allSatisfy { $0.series.isEmpty })

        // A whole pass no longer has it.
        #expect(try await pass(client, .series, limit: 4).series.map(\.id) == server.seriesIDs)
    }

    @Test(arguments: DemoProtocol.allCases)
    func liveEventsAskForTheBrowseDomainsAgain(_ wire: DemoProtocol) async throws {
        let (server, client) = try await signedIn(wire)
        defer { Task { await server.stop() } }
        _ = try await books(client)
        let events = try await client.liveEvents()
        for _ in 0..<250 where server.eventStreamCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.eventStreamCount == 1)
        let seriesID = try #require(server.seriesIDs.first), personID = try #require(server.contributorIDs.first)
        server.renameSeries(id: seriesID, to: "The Live Saga")
        server.renameContributor(id: personID, to: "Live Person")
        server.deleteSeries(id: seriesID)
        // Each protocol's events (REST's `series.updated`, `contributor.updated`,
        // `series.deleted`; kRPC's domain events) reach the core alike: a
        // delta. (kRPC also sends the books whose series or person changed.)
        var deltas = 0
        for try await event in events where event == .needsDeltaSync {
            deltas += 1
            if deltas == 3 { break }
        }
        #expect(deltas == 3)
    }

    @Test func contributorsAndSeriesScaleWithTheLibrary() throws {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = 10_000
        configuration.payload = .realistic
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        let contributors = server.contributorIDs, series = server.seriesIDs
        #expect((1_900...2_000).contains(contributors.count), "\(contributors.count) contributors")
        #expect(series.count == 1_000)
        #expect(Set(contributors).count == contributors.count && Set(series).count == series.count)
    }
}
