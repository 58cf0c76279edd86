import DemoServer
import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Testing
@testable import ListenUpCore

/// `--payload realistic`: every book has a real library's shape, the same
/// books in both protocols, and stays playable.
@Suite("Realistic payload")
struct RealisticPayloadTests {
    let logs = LogCapture()
    static let email = "ada@example.com", password = "analytical-engine"

    func server(_ wire: DemoProtocol, books: Int, payload: DemoPayload = .realistic) async throws -> (DemoServer, URL) {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.protocol = wire
        configuration.payload = payload
        configuration.admin = .init(email: Self.email, password: Self.password)
        let server = DemoServer(configuration: configuration, logger: logs.logger)
        try await server.start()
        let url = try #require(server.baseURL)
        return (server, url)
    }

    /// Every book of a REST server, as `/sync/books` sends them, and the session.
    func restBooks(_ url: URL) async throws -> ([SyncBook], StoredSession) {
        let login = APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(),
                              deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        let session = try await login.login(email: Self.email, password: Self.password)
        let client = APIClient(baseURL: url, session: session, transport: .live, sessions: .inMemory(),
                               deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        var books: [SyncBook] = [], cursor: String?
        repeat {
            let page = try await client.authorized(.syncBooks(limit: 500, cursor: cursor))
            books += page.books
            cursor = page.hasMore ? page.nextCursor : nil
        } while cursor != nil
        return (books, session)
    }

    @Test func everyBookHasARealLibrarysShapeAndStaysPlayable() async throws {
        let (server, url) = try await server(.rest, books: 400)
        defer { Task { await server.stop() } }
        let (books, session) = try await restBooks(url)
        #expect(books.count == 400)
        var fileIDs = Set<String>()
        for book in books {
            let chapters = book.chapters ?? []
            #expect((10...60).contains(chapters.count), "\(book.id): \(chapters.count) chapters")
            #expect((1...30).contains(book.audioFiles.count), "\(book.id): \(book.audioFiles.count) files")
            #expect((1...4).contains(book.contributors.count), "\(book.id): \(book.contributors.count) contributors")
            #expect(!book.names(withRole: "author").isEmpty && !book.names(withRole: "narrator").isEmpty)
            #expect(Set(book.contributors.map(\.contributorID)).count == book.contributors.count)
            #expect(book.seriesInfo?.count == 1 && book.series?.count == 1 && book.seriesName == book.seriesInfo?.first?.name)
            #expect(book.seriesInfo?.first?.sequence.flatMap(Double.init) != nil)
            let description = book.description ?? ""
            #expect((1_024...2_048).contains(description.utf8.count), "\(book.id): \(description.utf8.count) bytes of description")
            #expect(description.hasPrefix("<p>") && description.hasSuffix("</p>"))
            #expect(book.publisher != nil && book.publishYear != nil && book.genres?.isEmpty == false)
            // Playable: files follow each other over the whole book, and the
            // chapters cover it without gaps, each in the file where it starts.
            #expect(book.audioFiles.reduce(0) { $0 + $1.duration } == book.totalDuration)
            #expect(book.audioFiles.allSatisfy { $0.duration > 0 })
            #expect(chapters.first?.startTime == 0 && chapters.last?.endTime == book.totalDuration)
            #expect(zip(chapters, chapters.dropFirst()).allSatisfy { $0.endTime == $1.startTime && $0.startTime < $0.endTime })
            var start: Int64 = 0
            let starts = book.audioFiles.map { file in
                defer { start += file.duration }
                return (id: file.id, start: start, end: start + file.duration)
            }
            for chapter in chapters {
                let file = starts.first { $0.start <= chapter.startTime && chapter.startTime < $0.end }
                #expect(file?.id == chapter.audioFileID, "\(book.id) chapter \(chapter.index)")
            }
            fileIDs.formUnion(book.audioFiles.map(\.id))
        }
        #expect(fileIDs.count == books.reduce(0) { $0 + $1.audioFiles.count }, "no two files share an id")
        // The spread reaches near both ends of each range.
        let chapterCounts = books.map { $0.chapters?.count ?? 0 }, fileCounts = books.map(\.audioFiles.count)
        #expect((chapterCounts.min() ?? 0) <= 12 && (chapterCounts.max() ?? 0) >= 58)
        #expect((fileCounts.min() ?? 0) <= 2 && (fileCounts.max() ?? 0) >= 29)
        #expect(Set(books.map(\.contributors.count)) == [1, 2, 3, 4])

        // The audio of the book with the most files, at its last file's end.
        let book = try #require(books.max { $0.audioFiles.count < $1.audioFiles.count })
        let last = try #require(book.audioFiles.last)
        let audio = try #require(URL(string: "\(url.absoluteString)/api/v1/audio/\(book.id)/\(last.id)"))
        let response = try await HTTPTransport.live.send(
            HTTPRequest(method: "GET", url: audio, headers: [("Authorization", "Bearer \(session.accessToken)"),
                                                             ("Range", "bytes=\(last.size - 100)-")]), .seconds(10), 1 << 20)
        #expect(response.status == 206 && response.body.count == 100)
    }

    @Test func theSameSeedGivesTheSameBooksAndTheDefaultStaysCompact() async throws {
        let (first, firstURL) = try await server(.rest, books: 30)
        let (second, secondURL) = try await server(.rest, books: 30)
        let (compact, compactURL) = try await server(.rest, books: 30, payload: .compact)
        defer { Task { for server in [first, second, compact] { await server.stop() } } }
        let one = try await restBooks(firstURL).0, two = try await restBooks(secondURL).0, plain = try await restBooks(compactURL).0
        func shape(_ book: SyncBook) -> String {
            "\(book.title)|\(book.chapters ?? [])|\(book.audioFiles.map(\.id))|\(book.contributors)|\(book.description ?? "")"
        }
        #expect(one.map(shape) == two.map(shape))
        #expect(zip(one, plain).allSatisfy { $0.title == $1.title && $0.totalDuration == $1.totalDuration },
                "titles and durations do not depend on the payload")
        #expect(plain.allSatisfy { (3...12).contains($0.chapters?.count ?? 0) && (2...4).contains($0.audioFiles.count) })
        #expect(plain.allSatisfy { $0.description == nil && $0.seriesInfo == nil && $0.contributors.count == 2 })
    }

    /// The app stores the same rows whichever protocol brought them.
    @Test func bothProtocolsGiveTheSameBooksToTheApp() async throws {
        let (rest, restURL) = try await server(.rest, books: 120)
        let (krpc, krpcURL) = try await server(.krpc, books: 120)
        defer { Task { await rest.stop(); await krpc.stop() } }
        let restStore = SQLiteLibraryStore.inMemory(), krpcStore = SQLiteLibraryStore.inMemory()
        let (_, session) = try await restBooks(restURL)
        let client = APIClient(baseURL: restURL, session: session, transport: .live, sessions: .inMemory(),
                               deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        try await LibrarySync(server: client, store: restStore, pageSize: 50).run()
        let connection = KRPCServerConnection(baseURL: krpcURL, session: nil, transport: .live, sessions: .inMemory(),
                                              deviceInfo: DeviceInfo(deviceType: "desktop", platform: "Linux"), logger: logs.logger)
        _ = try await connection.login(email: Self.email, password: Self.password)
        try await LibrarySync(server: connection, store: krpcStore, pageSize: 50).run()
        await connection.logout()

        // Chapter ids are kRPC's alone (REST v1 chapters have none; they
        // are sent back as a position's currentChapterId): compared apart.
        func rows(_ store: SQLiteLibraryStore) throws -> [String] {
            try store.books().sorted { $0.id < $1.id }.map { book in
                var details = book.decodedDetails
                for index in details.chapters.indices { details.chapters[index].id = nil }
                return "\(book.id)|\(book.title)|\(book.authors)|\(book.narrators)|\(book.series)|\(book.duration)|\(book.hasCover)|"
                    + "\(book.searchKey)|\(details)"
            }
        }
        let restRows = try rows(restStore), krpcRows = try rows(krpcStore)
        #expect(try krpcStore.books().allSatisfy { $0.decodedDetails.chapters.allSatisfy { $0.id != nil } }, "kRPC keeps chapter ids")
        #expect(restRows.count == 120)
        #expect(restRows == krpcRows)
        // Looked up by id, as a live change reads them.
        let some = Set(try restStore.books().prefix(3).map(\.id) + ["book-nope"])
        let found = try restStore.listedBooks(ids: some)
        #expect(found.count == 3 && found.allSatisfy { some.contains($0.id) && $0.details.isEmpty })
        #expect(try restStore.listedBooks(ids: []).isEmpty)
    }
}
