import Foundation

/// An HTTP method the API uses.
public enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", patch = "PATCH", delete = "DELETE"
}

/// One call: method, path under the base URL, query, JSON body, whether it
/// needs the Bearer token, and what `data` decodes to.
public struct Endpoint<Response: Decodable & Sendable>: Sendable {
    public var method: HTTPMethod
    /// Starts with `/`; path segments are percent-encoded.
    public var path: String
    /// Query items, in order, unencoded.
    public var query: [(name: String, value: String)]
    public var body: Data?
    public var requiresAuth: Bool

    public init(method: HTTPMethod, path: String, query: [(name: String, value: String)] = [], body: Data? = nil, requiresAuth: Bool) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.requiresAuth = requiresAuth
    }

    /// The query string, percent-encoded (`+` as `%2B`, so RFC 3339 offsets survive).
    public var percentEncodedQuery: String {
        query.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// One path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        encode(text)
    }

    static func json(_ value: some Encodable) -> Data? {
        try? ListenUpJSON.encoder.encode(value)
    }
}

extension Endpoint where Response == InstanceResponse {
    /// `GET /api/v1/instance`: verify a server (no auth).
    public static var instance: Endpoint { Endpoint(method: .get, path: "/api/v1/instance", requiresAuth: false) }
}

extension Endpoint where Response == AuthResponse {
    /// `POST /api/v1/auth/setup`: create the first admin.
    public static func setup(_ request: SetupRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/auth/setup", body: json(request), requiresAuth: false)
    }

    /// `POST /api/v1/auth/login`.
    public static func login(_ request: LoginRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/auth/login", body: json(request), requiresAuth: false)
    }

    /// `POST /api/v1/auth/refresh`: rotates both tokens.
    public static func refresh(_ request: RefreshRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/auth/refresh", body: json(request), requiresAuth: false)
    }
}

extension Endpoint where Response == MessageResponse {
    /// `POST /api/v1/auth/logout`.
    public static func logout(_ request: LogoutRequest) -> Endpoint {
        Endpoint(method: .post, path: "/api/v1/auth/logout", body: json(request), requiresAuth: false)
    }
}

extension Endpoint where Response == UserResponse {
    /// `GET /api/v1/users/me`.
    public static var me: Endpoint { Endpoint(method: .get, path: "/api/v1/users/me", requiresAuth: true) }
}

extension Endpoint where Response == LibraryStatus {
    /// `GET /api/v1/library/status`.
    public static var libraryStatus: Endpoint { Endpoint(method: .get, path: "/api/v1/library/status", requiresAuth: true) }
}

extension Endpoint where Response == SyncBooksResponse {
    /// `GET /api/v1/sync/books`: a page of the full book model; with
    /// `updatedAfter`, a delta.
    public static func syncBooks(limit: Int = 100, cursor: String? = nil, updatedAfter: Date? = nil) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/sync/books", query: syncQuery(limit: limit, cursor: cursor, updatedAfter: updatedAfter),
                 requiresAuth: true)
    }
}

extension Endpoint where Response == SyncContributorsResponse {
    /// `GET /api/v1/sync/contributors`: a page of contributors; with
    /// `updatedAfter`, a delta (and the ids deleted since, first page only).
    public static func syncContributors(limit: Int = 100, cursor: String? = nil, updatedAfter: Date? = nil) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/sync/contributors",
                 query: syncQuery(limit: limit, cursor: cursor, updatedAfter: updatedAfter), requiresAuth: true)
    }
}

extension Endpoint where Response == SyncSeriesResponse {
    /// `GET /api/v1/sync/series`: a page of series; with `updatedAfter`, a
    /// delta (and the ids deleted since, first page only).
    public static func syncSeries(limit: Int = 100, cursor: String? = nil, updatedAfter: Date? = nil) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/sync/series", query: syncQuery(limit: limit, cursor: cursor, updatedAfter: updatedAfter),
                 requiresAuth: true)
    }
}

extension Endpoint {
    /// The query every `/api/v1/sync/…` page takes: `limit`, `cursor`, `updated_after`.
    static func syncQuery(limit: Int, cursor: String?, updatedAfter: Date?) -> [(name: String, value: String)] {
        var query: [(name: String, value: String)] = [("limit", String(limit))]
        if let cursor { query.append(("cursor", cursor)) }
        if let updatedAfter { query.append(("updated_after", RFC3339.string(from: updatedAfter))) }
        return query
    }
}

extension Endpoint where Response == ProgressResponse {
    /// `GET /api/v1/books/{id}/progress` (a never-played book answers 500).
    public static func progress(bookID: String) -> Endpoint {
        Endpoint(method: .get, path: "/api/v1/books/\(segment(bookID))/progress", requiresAuth: true)
    }
}

/// Paths of the raw (not enveloped) endpoints.
public enum RawEndpoint {
    /// `GET /api/v1/covers/{bookId}`: cover bytes, Bearer header only.
    public static func cover(bookID: String) -> String {
        "/api/v1/covers/\(Endpoint<InstanceResponse>.segment(bookID))"
    }

    /// `GET /api/v1/contributors/{id}/image`: a contributor's photo (JPEG),
    /// Bearer header only.
    public static func contributorImage(contributorID: String) -> String {
        "/api/v1/contributors/\(Endpoint<InstanceResponse>.segment(contributorID))/image"
    }
}
