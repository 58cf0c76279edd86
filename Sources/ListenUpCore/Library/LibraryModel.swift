import Foundation
import ListenUpAPI
import Observation

/// The library landing: the signed-in user's books (title and authors). It
/// shows the local cache at once (also offline), then syncs it through
/// `/api/v1/sync/books` (full once, then deltas) and shows the result.
/// (Covers, search and sort come with the full library page.)
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
    /// The server could not be reached; the cached books are shown.
    public private(set) var isOffline = false
    /// Books stored by the sync running now.
    public private(set) var syncedCount = 0

    @ObservationIgnored private let dependencies: Dependencies
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var client: APIClient?
    @ObservationIgnored private var work: Task<Void, Never>?
    @ObservationIgnored private var store: LibraryStore?

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
        let store = self.store ?? dependencies.openLibrary(session.serverURL, session.userID)
        self.store = store
        let cached = (try? store.books()) ?? []
        books = cached.map(Book.init)
        status = cached.isEmpty ? .loading : .loaded
        syncedCount = 0
        let dependencies = dependencies
        work = Task { [weak self] in
            guard let client = await self?.connect(session, dependencies: dependencies) else { return }
            do {
                try await LibrarySync(client: client, store: store).run { stored in
                    await MainActor.run { self?.syncedCount = stored }
                }
                guard !Task.isCancelled, let self else { return }
                self.books = ((try? store.books()) ?? []).map(Book.init)
                self.isOffline = false
                self.status = .loaded
            } catch let error as APIClientError {
                guard !Task.isCancelled, let self else { return }
                if error == .sessionLapsed { return } // the lapse handler moves on
                if case .transport = error, !self.books.isEmpty {
                    self.isOffline = true
                    self.status = .loaded
                    return
                }
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
            "offline": .bool(isOffline),
            "synced": .number(Double(syncedCount)),
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
    func showForPreview(_ books: [Book], status: Status, offline: Bool = false) {
        self.books = books
        self.status = status
        isOffline = offline
    }
}

extension LibraryModel.Book {
    init(_ book: CachedBook) {
        id = book.id
        title = book.title
        authors = book.authors
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
            .init("offline") { $0.showForPreview(LibraryModel.previewBooks, status: .loaded, offline: true) },
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
