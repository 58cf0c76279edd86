import Foundation
import LANDiscovery
import ListenUpAPI
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// A ListenUp-compatible server for tests, demos and trying the app without
/// a real server: strict like the real one (unknown keys → 422, login
/// without `device_info` → 400, burst-10 rate limit → 429, refresh rotation,
/// configurable access-token lifetime), with a generated library and covers.
public final class DemoServer: Sendable {
    /// The admin created at start (then `setup_required` is false).
    public struct Admin: Sendable {
        public var email: String
        public var password: String
        public var firstName: String
        public var lastName: String

        public init(email: String, password: String, firstName: String = "Demo", lastName: String = "Admin") {
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    /// How the server behaves.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port.
        public var port = 0
        public var serverName = "ListenUp Demo"
        public var bookCount = 200
        public var seed: UInt64 = 42
        /// Seconds an access token lives (the real default is 30 days).
        public var accessTokenLifetime: TimeInterval = 30 * 24 * 3600
        public var admin: Admin?
        /// Announce the server as `_listenup._tcp` on the LAN (Avahi), with
        /// the TXT keys the real server sends.
        public var advertise = false
        /// Seconds between heartbeats on `/api/v1/sync/events` (the real
        /// server sends about two every 30 s).
        public var heartbeatInterval: TimeInterval = 15
        /// Seconds to earn back one auth attempt once the burst of 10 is
        /// spent (the real server: 3). Tests that count attempts set it
        /// high, so a slow machine cannot earn one back mid-test.
        public var authAttemptRefill: TimeInterval = 3
        /// When set, every chapter of every book lasts this many seconds
        /// (short books for tests); otherwise books last 1 to 11 hours.
        public var chapterSeconds: Double?

        public init() {}
    }

    private let service: DemoService
    private let channel: Locked<(any Channel)?> = Locked(nil)
    private let advertiser: Locked<ServiceAdvertiser?> = Locked(nil)
    /// Open client connections, closed on stop like a real server's.
    private let connections = Locked<[ObjectIdentifier: any Channel]>([:])
    private let logger: Logger

    public init(configuration: Configuration, logger: Logger = Logger(label: "listenup-demo-server")) {
        service = DemoService(configuration: configuration, logger: logger)
        self.logger = logger
    }

    /// The instance id (`lib-…`) this server answers with.
    public var instanceID: String { service.instanceID }
    /// The generated books.
    public var bookCount: Int { service.books.count }

    /// Starts listening; returns once the socket is bound, with its port.
    @discardableResult
    public func start() async throws -> Int {
        let service = service
        let connections = connections
        let bound = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let key = ObjectIdentifier(channel)
                connections.withLock { $0[key] = channel }
                channel.closeFuture.whenComplete { _ in connections.withLock { _ = $0.removeValue(forKey: key) } }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(DemoHTTPHandler(service: service))
                }
            }
            .bind(host: service.configuration.host, port: service.configuration.port)
            .get()
        channel.withLock { $0 = bound }
        let port = bound.localAddress?.port ?? 0
        logger.info("Demo server listening", metadata: ["port": "\(port)", "books": "\(service.books.count)"])
        if service.configuration.advertise {
            let configuration = service.configuration
            // A server bound to loopback is announced on `lo` only: nothing
            // on the LAN could reach it anyway.
            let host = configuration.host
            let loopback = host.hasPrefix("127.") || host == "::1" || host == "localhost"
            let announcer = ServiceAdvertiser(
                name: configuration.serverName, type: "_listenup._tcp", port: port,
                txt: ["id=\(service.instanceID)", "name=\(configuration.serverName)", "version=1.0.0", "api=v1"],
                interface: loopback ? .named("lo") : .fromEnvironment(), logger: logger)
            announcer.start()
            advertiser.withLock { $0 = announcer }
        }
        return port
    }

    /// Stops listening.
    public func stop() async {
        let bound = channel.withLock { channel -> (any Channel)? in
            defer { channel = nil }
            return channel
        }
        try? await bound?.close()
        for open in connections.withLock({ Array($0.values) }) { try? await open.close() }
        advertiser.withLock { advertiser in
            advertiser?.stop()
            advertiser = nil
        }
    }

    // MARK: Test controls

    /// Every current access token stops working (401 "Authentication required").
    public func expireAccessTokens() {
        service.state.withLock { $0.accessTokens.removeAll() }
    }

    /// Every session ends: refresh tokens are refused from now on.
    public func revokeAllSessions() {
        service.state.withLock {
            $0.sessions.removeAll()
            $0.accessTokens.removeAll()
        }
    }

    /// Refills the auth rate-limit buckets.
    public func resetRateLimit() {
        service.state.withLock { $0.buckets.removeAll() }
    }

    /// Renames a book (its `updated_at` moves to now).
    public func updateBook(id: String, title: String) {
        service.state.withLock { state in
            guard let index = state.books.firstIndex(where: { $0.id == id }) else { return }
            state.books[index].title = title
            state.books[index].updatedAt = Date()
        }
    }

    /// Deletes a book (delta syncs report it in `deleted_book_ids`); with
    /// `announce`, event streams get `book.deleted` too (the real server
    /// sends that only for access changes).
    public func deleteBook(id: String, announce: Bool = false) {
        let now = Date()
        service.state.withLock { state in
            state.books.removeAll { $0.id == id }
            state.deletedBookIDs.append((id, now))
        }
        if announce { service.events.broadcast("book.deleted", BookDeletedPayload(deletedAt: now, bookID: id)) }
    }

    /// Sends `listening.progress_updated` to every event stream.
    public func reportProgress(bookID: String, progress: Double, finished: Bool = false) {
        service.events.broadcast("listening.progress_updated", ProgressUpdatedPayload(bookID: bookID, progress: progress, isFinished: finished))
    }

    /// Sends `library.scan_progress` with phase `complete` (clients run a delta sync).
    public func finishScan() {
        service.events.broadcast("library.scan_progress", ScanProgressPayload(phase: "complete"))
    }

    /// Open event streams.
    public var eventStreamCount: Int { service.events.count }

    /// Closes every event stream, as a restarting server or a dropped
    /// network would.
    public func dropEventStreams() {
        service.events.dropAll()
    }

    /// Adds a book; returns its id.
    @discardableResult
    public func addBook(title: String) -> String {
        let id = "book-added-" + UUID().uuidString.prefix(8).lowercased()
        let now = Date()
        let book = SyncBook(createdAt: now, updatedAt: now, id: id, title: title, path: "/audiobooks/\(title)", audioFiles: [],
                            totalDuration: 60_000, totalSize: 1000,
                            contributors: [BookContributor(contributorID: "contributor-added", name: "New Author", roles: ["author"])])
        service.state.withLock { $0.books.append(book) }
        service.events.broadcast("book.created", BookCreatedPayload(book: book))
        return id
    }

    /// Every listening event the server accepted, in order (duplicates once).
    public var acceptedListeningEvents: [ListeningEventDTO] {
        service.state.withLock { $0.listening.accepted }
    }

    /// The next `times` audio requests are answered with `status` (403: a
    /// file the user may not play).
    public func refuseAudio(status: Int, times: Int = 1) {
        service.state.withLock { $0.audioRefusal = times > 0 ? (status, times) : nil }
    }

    /// The next audio response stops after `bytes` body bytes and the
    /// connection closes, as a network drop would.
    public func cutNextAudio(after bytes: Int) {
        service.state.withLock { $0.audioCut = bytes }
    }

    /// How many requests reached `path` (e.g. `/api/v1/auth/refresh`;
    /// `/api/v1/audio` counts every audio request).
    public func requestCount(_ path: String) -> Int {
        service.state.withLock { $0.requestCounts[path, default: 0] }
    }
}

/// Reads a whole request (at most 1 MiB of body), hands it to the service.
private final class DemoHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked Sendable: lives on its channel's event loop only.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let maxBody = 1 << 20
    private let service: DemoService
    private var head: HTTPRequestHead?
    private var body = Data()
    private var tooLarge = false

    init(service: DemoService) {
        self.service = service
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
            tooLarge = false
        case .body(var buffer):
            if body.count + buffer.readableBytes > Self.maxBody {
                tooLarge = true
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                body.append(contentsOf: bytes)
            }
        case .end:
            guard let head else { return }
            if head.method == .GET, head.uri.split(separator: "?").first == "/api/v1/sync/events" {
                let request = DemoRequest(method: "GET", path: "/api/v1/sync/events", query: [:],
                                          headers: head.headers.map { ($0.name, $0.value) }, body: Data())
                if let refusal = service.refuseEventStream(request) {
                    write(refusal, keepAlive: false, context: context)
                } else {
                    DemoEventHub.open(on: context, hub: service.events, heartbeat: service.configuration.heartbeatInterval)
                }
                self.head = nil
                return
            }
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            if let answer = service.audio(method: head.method.rawValue, path: path, query: Self.query(of: head.uri),
                                          headers: head.headers.map { ($0.name, $0.value) }) {
                switch answer {
                case .response(let response):
                    write(response, keepAlive: head.isKeepAlive, context: context)
                case .stream(let file, let range, let status, let total, let cutAfter):
                    stream(file, range: range, status: status, total: total, cutAfter: cutAfter, head: head, context: context)
                }
                self.head = nil
                return
            }
            let response: DemoResponse
            if tooLarge {
                response = .failure(413, "request body is too large limit=1048576 bytes")
            } else {
                let request = DemoRequest(method: head.method.rawValue, path: path, query: Self.query(of: head.uri),
                                          headers: head.headers.map { ($0.name, $0.value) }, body: body)
                response = service.handle(request)
            }
            write(response, keepAlive: head.isKeepAlive && !tooLarge, context: context)
            self.head = nil
        }
    }

    static func query(of uri: String) -> [String: String] {
        let parts = uri.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                let key = String(kv[0]).removingPercentEncoding ?? String(kv[0])
                let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
                query[key] = value
            }
        }
        return query
    }

    /// Streams synthesised audio in 64 KiB chunks, each written once the
    /// one before is flushed (memory stays flat for any file size).
    private func stream(_ file: DemoAudio.File, range: Range<Int64>, status: Int, total: Int64, cutAfter: Int?,
                        head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "audio/wav")
        headers.add(name: "Accept-Ranges", value: "bytes")
        headers.add(name: "Content-Length", value: String(range.count))
        headers.add(name: "Last-Modified", value: "Mon, 01 Jun 2026 12:00:00 GMT")
        if status == 206 { headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(total)") }
        let keepAlive = head.isKeepAlive && cutAfter == nil
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status),
                                                             headers: headers))), promise: nil)
        if head.method == .HEAD {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let end = cutAfter.map { min(range.upperBound, range.lowerBound + Int64($0)) } ?? range.upperBound
        let channel = context.channel
        let chunk: Int64 = 64 << 10
        @Sendable func send(from offset: Int64) {
            guard channel.isActive else { return }
            if offset >= end {
                if cutAfter != nil {
                    channel.close(promise: nil)
                } else {
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
                }
                return
            }
            let next = min(end, offset + chunk)
            let bytes = file.bytes(offset..<next)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes)))).whenComplete { result in
                if case .success = result { send(from: next) }
            }
        }
        send(from: range.lowerBound)
    }

    private func write(_ response: DemoResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
