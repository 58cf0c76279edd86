import Foundation
import ListenUpAPI

/// The REST mode's listening routes (contract §10, §11.2); the rules
/// themselves, shared with the kRPC mode, are in DemoListening.swift.
extension DemoService {
    // MARK: Listening events (§10.1)

    func listeningEvents(_ request: DemoRequest, user: User) -> DemoResponse {
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return .failure(request.body.isEmpty ? 400 : 422, request.body.isEmpty ? APIMessage.bodyRequired : APIMessage.validationFailed)
        }
        guard let list = object["events"] as? [[String: Any]] else {
            return .failure(422, "expected required property events to be present (body: \(Self.goMap(object)))")
        }
        let required = ["id", "book_id", "start_position_ms", "end_position_ms", "started_at", "ended_at", "playback_speed", "device_id"]
        for (index, event) in list.enumerated() {
            for key in required where event[key] == nil {
                return .failure(422, "expected required property \(key) to be present (body.events[\(index)]: \(Self.goMap(event)))")
            }
            for key in ["started_at", "ended_at"] where !(event[key] is NSNumber) {
                return .failure(422, "expected integer (body.events[\(index)].\(key): \(event[key].map { "\($0)" } ?? ""))")
            }
        }
        guard let decoded = try? ListenUpJSON.decoder.decode(ListeningEventsRequest.self, from: request.body) else {
            return .failure(422, APIMessage.validationFailed)
        }
        let durations = Dictionary(books.map { ($0.id, $0.totalDuration) }, uniquingKeysWith: { first, _ in first })
        var acknowledged: [String] = []
        var failed: [String] = []
        var changed: [(String, ListeningState.Progress, ListeningEventDTO)] = []
        state.withLock { state in
            let now = Date()
            for event in decoded.events {
                guard !event.deviceID.isEmpty else {
                    failed.append(event.id)
                    continue
                }
                let details = ListeningState.EventDetails(tz: "UTC", deviceLabel: event.deviceID, receivedAt: now)
                switch state.acceptListening(event, details: details, userID: user.id, durations: durations, now: now) {
                case .refused:
                    failed.append(event.id)
                case .duplicate:
                    acknowledged.append(event.id)
                case .accepted(let progress):
                    acknowledged.append(event.id)
                    changed.append((event.bookID, progress, event))
                }
            }
        }
        for (bookID, progress, event) in changed {
            let total = durations[bookID] ?? 0
            events.broadcast("listening.progress_updated", ProgressUpdatedPayload(
                bookID: bookID, progress: total > 0 ? min(1, Double(progress.position) / Double(total)) : 0, isFinished: progress.finished,
                currentPositionMs: progress.position, totalListenTimeMs: progress.totalListened, finishedAt: progress.finishedAt,
                startedAt: progress.startedAt, lastPlayedAt: progress.lastPlayedAt))
            events.broadcast("listening.event_created", event)
        }
        return .envelope(ListeningEventsResponse(acknowledged: acknowledged, failed: failed))
    }

    // MARK: Progress (§10.2, §10.3)

    func progressList(_ request: DemoRequest, user: User) -> DemoResponse {
        var after: Date?
        if let text = request.query["updated_after"] {
            guard let date = RFC3339.date(from: text) else { return .failure(400, "invalid updated_after format, expected RFC3339") }
            after = date
        }
        let all = state.withLock { $0.listening.progress[user.id] ?? [:] }
        let items = all.filter { entry in after.map { entry.value.updatedAt > $0 } ?? true }
            .sorted { $0.key < $1.key }
            .map { ProgressItemDTO(bookID: $0.key, currentPositionMs: $0.value.position, isFinished: $0.value.finished,
                                   finishedAt: $0.value.finishedAt, lastPlayedAt: $0.value.lastPlayedAt, updatedAt: $0.value.updatedAt) }
        return .envelope(ProgressListResponse(items: items))
    }

    func continueList(_ request: DemoRequest, user: User) -> DemoResponse {
        let limit = Int(request.query["limit"] ?? "10") ?? -1
        guard (1...100).contains(limit) else { return .failure(422, "expected number <= 100 (query.limit: \(request.query["limit"] ?? ""))") }
        let all = state.withLock { $0.listening.progress[user.id] ?? [:] }
        let library = Dictionary(books.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let items = all.filter { !$0.value.finished && $0.value.position > 0 }
            .sorted { $0.value.lastPlayedAt > $1.value.lastPlayedAt }
            .prefix(limit)
            .compactMap { entry -> ContinueItemDTO? in
                guard let book = library[entry.key] else { return nil }
                let total = book.totalDuration
                return ContinueItemDTO(bookID: book.id, title: book.title, authorName: book.author, coverPath: nil,
                                       currentPositionMs: entry.value.position, totalDurationMs: total,
                                       progress: total > 0 ? Double(entry.value.position) / Double(total) : 0,
                                       lastPlayedAt: entry.value.lastPlayedAt)
            }
        return .envelope(ContinueListResponse(items: Array(items)))
    }

    /// `GET /books/{id}/progress`, `POST …/progress/complete`, `POST …/progress/restart`.
    func bookProgress(_ request: DemoRequest, user: User) -> DemoResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        // ["api", "v1", "books", id, "progress", action?]
        guard parts.count >= 5, parts[4] == "progress" else { return .text(404, "404 page not found") }
        let bookID = parts[3]
        let action = parts.count > 5 ? parts[5] : nil
        guard let book = books.first(where: { $0.id == bookID }) else { return .failure(404, "book not found") }
        let now = Date()
        switch (request.method, action) {
        case ("GET", nil):
            guard let progress = state.withLock({ $0.listening.progress[user.id]?[bookID] }) else {
                // The real server's never-played answer (contract §10.2).
                return .failure(500, APIMessage.unexpected)
            }
            let total = book.totalDuration
            return .envelope(BookProgressResponse(
                userID: user.id, bookID: bookID, currentPositionMs: progress.position, totalDurationMs: total,
                progress: total > 0 ? min(1, Double(progress.position) / Double(total)) : 0, totalListenTimeMs: progress.totalListened,
                startedAt: progress.startedAt, lastPlayedAt: progress.lastPlayedAt, updatedAt: progress.updatedAt, isFinished: progress.finished))
        case ("POST", "complete"):
            guard !request.body.isEmpty else { return .failure(400, APIMessage.bodyRequired) }
            let progress = state.withLock { state -> ListeningState.Progress in
                var progress = state.listening.progress[user.id]?[bookID] ?? ListeningState.Progress(startedAt: now, lastPlayedAt: now, updatedAt: now)
                progress.finished = true
                progress.finishedAt = now
                progress.updatedAt = now
                state.storeProgress(progress, userID: user.id, bookID: bookID, now: now)
                return progress
            }
            return .envelope(ProgressChangeResponse(bookID: bookID, isFinished: true, finishedAt: progress.finishedAt,
                                                    currentPositionMs: progress.position, updatedAt: now))
        case ("POST", "restart"):
            state.withLock { state in
                var progress = state.listening.progress[user.id]?[bookID] ?? ListeningState.Progress(startedAt: now, lastPlayedAt: now, updatedAt: now)
                progress.finished = false
                progress.finishedAt = nil
                progress.position = 0
                progress.updatedAt = now
                state.storeProgress(progress, userID: user.id, bookID: bookID, now: now)
            }
            return .envelope(ProgressChangeResponse(bookID: bookID, isFinished: false, currentPositionMs: 0, updatedAt: now))
        default:
            return .failure(405, "method not allowed")
        }
    }

    // MARK: Audio (§11.2)

    /// What to send for an audio request.
    enum AudioAnswer {
        case response(DemoResponse)
        /// Bytes `range` of `file`, with `status` (200 or 206); cut after
        /// `cutAfter` bytes when set.
        case stream(DemoAudio.File, range: Range<Int64>, status: Int, total: Int64, cutAfter: Int?)
    }

    /// `GET|HEAD /api/v1/audio/{bookId}/{fileId}` and its alias
    /// `/api/v1/books/{bookId}/audio/{fileId}`; nil for other paths. Every
    /// answer is recorded (``recordAudio(_:path:bookID:fileID:headers:)``).
    func audio(method: String, path: String, query: [String: String], headers: [(String, String)]) -> AudioAnswer? {
        let parts = path.split(separator: "/").map(String.init)
        let ids: (String, String)?
        if parts.count == 5, parts[0] == "api", parts[1] == "v1", parts[2] == "audio" {
            ids = (parts[3], parts[4])
        } else if parts.count == 6, parts[0] == "api", parts[1] == "v1", parts[2] == "books", parts[4] == "audio" {
            ids = (parts[3], parts[5])
        } else {
            ids = nil
        }
        guard let (bookID, fileID) = ids, method == "GET" || method == "HEAD" else { return nil }
        state.withLock { $0.requestCounts["/api/v1/audio", default: 0] += 1 }
        let answer = audio(method: method, path: path, query: query, headers: headers, bookID: bookID, fileID: fileID)
        return recordAudio(answer, method: method, path: path, bookID: bookID, fileID: fileID, headers: headers)
    }

    private func audio(method: String, path: String, query: [String: String], headers: [(String, String)],
                       bookID: String, fileID: String) -> AudioAnswer {
        var request = DemoRequest(method: method, path: path, query: query, headers: headers, body: Data())
        // The query token is checked first, as the real server does (the app never uses it).
        if let token = query["token"] { request.headers = [("Authorization", "Bearer \(token)")] }
        guard bearer(request) != nil else {
            return .response(.text(401, request.header("Authorization") == nil ? "unauthorized" : "invalid token"))
        }
        if let refusal = takeAudioRefusal() {
            return .response(.text(refusal, refusal == 403 ? "forbidden" : "refused"))
        }
        guard let book = books.first(where: { $0.id == bookID }) else { return .response(.text(404, "book not found")) }
        guard let file = DemoAudio.file(fileID, of: book) else { return .response(.text(404, "file not found")) }
        let total = file.size
        var range: Range<Int64> = 0..<total
        var status = 200
        if let header = request.header("Range") {
            switch DemoAudio.byteRange(header, total: total) {
            case .success(let asked):
                range = asked
                status = 206
            case .failure(.malformed):
                return .response(.text(416, "invalid range"))
            case .failure(.unsatisfiable):
                return .response(DemoResponse(status: 416, contentType: "text/plain; charset=utf-8", body: Data("invalid range: failed to overlap\n".utf8),
                                              headers: [("Content-Range", "bytes */\(total)")]))
            }
        }
        return .stream(file, range: range, status: status, total: total, cutAfter: takeAudioCut())
    }

    /// The status the ``DemoServer/refuseAudio(status:times:)`` hook asks
    /// for this audio request, if any (counts the refusal down).
    func takeAudioRefusal() -> Int? {
        state.withLock { state -> Int? in
            guard let refusal = state.audioRefusal else { return nil }
            state.audioRefusal = refusal.remaining > 1 ? (refusal.status, refusal.remaining - 1) : nil
            return refusal.status
        }
    }

    /// The byte count the ``DemoServer/cutNextAudio(after:)`` hook asks for, once.
    func takeAudioCut() -> Int? {
        state.withLock { state -> Int? in defer { state.audioCut = nil }; return state.audioCut }
    }

    /// The most audio requests ``DemoServer/audioRequests()`` keeps (the oldest go first).
    static let audioRequestsKept = 10_000

    /// Records an audio request and what it was answered (in both
    /// protocols), for ``DemoServer/audioRequests()`` and the
    /// ``DemoServer/Configuration/audioRequestObserver``; returns `answer`.
    /// `path` has no query (a kRPC URL's signature is never kept).
    func recordAudio(_ answer: AudioAnswer, method: String, path: String, bookID: String, fileID: String,
                     headers: [(String, String)]) -> AudioAnswer {
        let status: Int
        switch answer {
        case .response(let response): status = response.status
        case .stream(_, _, let code, _, _): status = code
        }
        let range = headers.first { $0.0.caseInsensitiveCompare("Range") == .orderedSame }?.1
        let request = DemoServer.AudioRequest(method: method, path: path, bookID: bookID.removingPercentEncoding ?? bookID,
                                              fileID: fileID.removingPercentEncoding ?? fileID, range: range, status: status)
        state.withLock { state in
            if state.audioRequests.count >= Self.audioRequestsKept { state.audioRequests.removeFirst() }
            state.audioRequests.append(request)
        }
        configuration.audioRequestObserver?(request)
        return answer
    }
}

/// `GET /api/v1/books/{id}/progress` (contract §10.2), in its key order.
private struct BookProgressResponse: Encodable {
    var userID: String
    var bookID: String
    var currentPositionMs: Int64
    var totalDurationMs: Int64
    var progress: Double
    var totalListenTimeMs: Int64
    var startedAt: Date
    var lastPlayedAt: Date
    var updatedAt: Date
    var isFinished: Bool

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case bookID = "book_id"
        case currentPositionMs = "current_position_ms"
        case totalDurationMs = "total_duration_ms"
        case progress
        case totalListenTimeMs = "total_listen_time_ms"
        case startedAt = "started_at"
        case lastPlayedAt = "last_played_at"
        case updatedAt = "updated_at"
        case isFinished = "is_finished"
    }
}
