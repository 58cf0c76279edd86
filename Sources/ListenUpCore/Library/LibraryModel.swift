import Foundation
import ListenUpAPI
import Observation

/// The library landing: the signed-in user's books (title and authors), from
/// every page of `/api/v1/sync/books`. (Cache, covers, search and sort come
/// with the full library.)
@MainActor @Observable
public final class LibraryModel: ScreenModel {
    /// One row.
    public struct Book: Equatable, Sendable, Identifiable {
        public var id: String
        public var title: String
        public var authors: String
    }

    public enum Status: Equatable, Sendable {
        case loading
        case loaded
        case failed(code: String, message: String)
    }

    public enum Intent: Equatable, Sendable {
        case reload
        case signOut
    }

    public private(set) var books: [Book] = []
    public private(set) var status: Status = .loading
    /// Who is signed in.
    public let session: Session?
    public private(set) var signingOut = false

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var client: APIClient?
    @ObservationIgnored private var work: Task<Void, Never>?

    /// The page size asked of `/sync/books` (the server allows up to 500).
    static let pageSize = 200

    public init(dependencies: Dependencies, session: Session?, load: Bool = true,
                send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        self.dependencies = dependencies
        self.session = session
        self.send = send
        if load { reload() }
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .reload: reload()
        case .signOut: signOut()
        }
    }

    private func reload() {
        guard let session else { return }
        work?.cancel()
        status = .loading
        let dependencies = dependencies
        work = Task { [weak self] in
            guard let client = await self?.connect(session, dependencies: dependencies) else { return }
            do {
                var cursor: String?
                var rows: [Book] = []
                repeat {
                    let page = try await client.authorized(.syncBooks(limit: Self.pageSize, cursor: cursor, updatedAfter: nil))
                    rows += page.books.map(Book.init)
                    cursor = page.hasMore ? page.nextCursor : nil
                } while cursor != nil && !Task.isCancelled
                guard !Task.isCancelled, let self else { return }
                self.books = rows.sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending }
                self.status = .loaded
            } catch let error as APIClientError {
                guard !Task.isCancelled, let self else { return }
                if error == .sessionLapsed { return } // the lapse handler moves on
                self.status = .failed(code: error.code, message: error.userMessage)
            } catch {
                guard !Task.isCancelled, let self else { return }
                self.status = .failed(code: "unreachable", message: APIClientError.transport(.unreachable("")).userMessage)
            }
        }
    }

    /// The client for this session, made once: the stored tokens, and a
    /// lapse handler that sends the user to Sign in.
    private func connect(_ session: Session, dependencies: Dependencies) async -> APIClient? {
        if let client { return client }
        guard let stored = await dependencies.sessions.load(session.serverURL) else {
            send(.sessionRefused)
            return nil
        }
        let client = dependencies.makeClient(baseURL: session.serverURL, session: stored)
        let send = send
        await client.onSessionLapsed { await MainActor.run { send(.sessionRefused) } }
        self.client = client
        return client
    }

    private func signOut() {
        guard !signingOut else { return }
        signingOut = true
        work?.cancel()
        let dependencies = dependencies
        let session = session
        Task { [weak self] in
            if let client = self?.client {
                await client.logout()
            } else if let session {
                let client = dependencies.makeClient(baseURL: session.serverURL, session: await dependencies.sessions.load(session.serverURL))
                await client.logout()
            }
            self?.send(.signedOut)
        }
    }

    public func deactivate() {
        work?.cancel()
        work = nil
    }

    public var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "bookCount": .number(Double(books.count)),
            "user": .optional(session?.displayName),
            "server": .optional(session?.serverURL.absoluteString),
            "books": .array(books.prefix(20).map { ["id": .string($0.id), "title": .string($0.title), "authors": .string($0.authors)] }),
        ]
        switch status {
        case .loading: state["status"] = "loading"
        case .loaded: state["status"] = "loaded"
        case .failed(let code, let message):
            state["status"] = "failed"
            state["code"] = .string(code)
            state["message"] = .string(message)
        }
        return .object(state)
    }

    /// Headless: `reload`, `logout`.
    public func handle(_ command: ScreenCommand) -> Bool {
        switch command.action {
        case "reload": send(.reload); return true
        case "logout": send(.signOut); return true
        default: return false
        }
    }

    /// Previews only.
    func showForPreview(_ books: [Book], status: Status) {
        self.books = books
        self.status = status
    }
}

extension LibraryModel.Book {
    init(_ book: SyncBook) {
        id = book.id
        title = book.title
        let authors = book.contributors.filter { $0.roles.contains("author") }.map(\.name)
        self.authors = (authors.isEmpty ? book.contributors.map(\.name) : authors).joined(separator: ", ")
    }
}

extension RouteNode {
    /// The library: signed in.
    public static let library = RouteNode(
        route: .library,
        serves: { if case .authenticated = $0 { true } else { false } },
        model: { context in
            var session: Session?
            if case .authenticated(let current) = context.authState { session = current }
            return LibraryModel(dependencies: context.dependencies, session: session, send: context.send)
        },
        previews: LibraryModel.previews
    )
}

extension LibraryModel {
    nonisolated static let previews: [PreviewState<LibraryModel>] = [
            .init("loading") { $0.showForPreview([], status: .loading) },
            .init("loaded") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded) },
            .init("empty") { $0.showForPreview([], status: .loaded) },
            .init("failed") {
                $0.showForPreview([], status: .failed(code: "unreachable", message: APIClientError.transport(.unreachable("")).userMessage))
            },
    ]
}

extension LibraryModel {
    nonisolated static let previewBooks: [Book] = {
        let titles: [(String, String)] = [
            ("The Left Hand of Darkness", "Ursula K. Le Guin"), ("Middlemarch", "George Eliot"),
            ("Piranesi", "Susanna Clarke"), ("The Remains of the Day", "Kazuo Ishiguro"),
            ("Project Hail Mary", "Andy Weir"), ("Wolf Hall", "Hilary Mantel"),
        ]
        return titles.enumerated().map { index, entry in Book(id: "book-\(index)", title: entry.0, authors: entry.1) }
    }()
}
