import DemoServer
import Foundation
import ListenUpAPI
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// The in-process demo server on a loopback address of its own, with small books (WAV files of
/// a few hundred kilobytes), and a connection signed in to it, for the
/// download tests of both protocols.
struct DownloadTestServer {
    static let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", clientName: "ListenUp for Linux", clientVersion: "0.1.0")
    static let email = "ada@example.com"
    static let password = "analytical-engine"

    let server: DemoServer
    let url: URL
    let connection: any ServerConnection
    let stored: StoredSession
    let books: [ServerBook]
    let wire: DemoProtocol

    /// Starts a server of `books` books whose chapters last `chapterSeconds`
    /// (a file is then about `chapterSeconds` × 32 kB to 3 × that), signs in.
    static func start(_ wire: DemoProtocol = .rest, books: Int = 2, chapterSeconds: Double = 4, logger: Logger,
                      configure: (inout DemoServer.Configuration) -> Void = { _ in }) async throws -> DownloadTestServer {
        var configuration = DemoServer.Configuration()
        configuration.bookCount = books
        configuration.chapterSeconds = chapterSeconds
        configuration.protocol = wire
        configuration.admin = .init(email: email, password: password)
        // Its own address: some tests start the server again on its port.
        configuration.host = Loopback.privateAddress()
        configure(&configuration)
        let server = DemoServer(configuration: configuration, logger: logger)
        try await server.start()
        let url = try #require(server.baseURL)
        let connection: any ServerConnection
        let stored: StoredSession
        switch wire {
        case .rest:
            let login = APIClient(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: device, logger: logger)
            stored = try await login.login(email: email, password: password)
            connection = APIClient(baseURL: url, session: stored, transport: .live, sessions: .inMemory([stored]), deviceInfo: device, logger: logger)
        case .krpc:
            let krpc = KRPCServerConnection(baseURL: url, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: device, logger: logger)
            stored = try await krpc.login(email: email, password: password)
            connection = krpc
        }
        let synced = try await connection.syncBooks(limit: 100, cursor: nil, updatedAfter: nil).books
        return DownloadTestServer(server: server, url: url, connection: connection, stored: stored, books: synced, wire: wire)
    }

    /// The session the download model runs under.
    var session: Session {
        Session(stored, connection: connection, generation: wire == .krpc ? .krpc : .restV1)
    }

    /// A library holding the server's books.
    func library() throws -> InMemoryLibraryStore {
        let library = InMemoryLibraryStore()
        _ = try library.apply(books, deleting: [], state: LibrarySyncState())
        return library
    }

    /// The book with the biggest file, and that file.
    func biggestFile() throws -> (book: ServerBook, file: ServerBook.AudioFile) {
        let pairs = books.flatMap { book in book.audioFiles.map { (book, $0) } }
        let biggest = try #require(pairs.max { $0.1.size < $1.1.size })
        return (biggest.0, biggest.1)
    }

    /// Where the app would fetch `fileID` of `bookID`, with its headers (a
    /// fresh signed URL on kRPC).
    func access(bookID: String, fileID: String) async throws -> (url: URL, headers: [String: String]) {
        let access = try await connection.audioAccess(bookID: bookID, fileIDs: [fileID], afterRefusal: false)
        return (try #require(access.urls[fileID]), access.headers)
    }

    /// The whole file as a plain `GET` of its URL returns it.
    func plainGET(bookID: String, fileID: String) async throws -> Data {
        let (url, headers) = try await access(bookID: bookID, fileID: fileID)
        let response = try await HTTPTransport.live.send(HTTPRequest(method: "GET", url: url, headers: headers.map { ($0.key, $0.value) }),
                                                         .seconds(30), 64 << 20)
        #expect(response.status == 200)
        return response.body
    }

    /// The audio requests the server saw for `fileID`.
    func requests(fileID: String) -> [DemoServer.AudioRequest] {
        server.audioRequests().filter { $0.fileID == fileID }
    }
}

/// Polls `condition` on the main actor every 20 ms, for at most `limit`
/// (a bound for a busy machine, not a measure: the tests judge what
/// happened, not when).
@MainActor
func settle(_ limit: Duration = .seconds(20), _ condition: () -> Bool) async {
    let end = ContinuousClock.now + limit
    while !condition(), ContinuousClock.now < end {
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// A fresh folder under the temporary directory.
func temporaryFolder(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("listenup-\(name)-\(UUID().uuidString)", isDirectory: true)
}
