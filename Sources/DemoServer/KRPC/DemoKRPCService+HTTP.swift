import Foundation
import JSONToolkit
import ListenUpKRPC

/// The kRPC mode's plain-HTTP routes (§1.1, §4, §6.5): `/healthz`, the
/// signed audio and cover-cast blobs, the Bearer covers. Everything else,
/// `HEAD` included (the native server has none, §6.1), and the rpc paths
/// without upgrade headers answer 404 `{"error":"not_found","path":…}`.
/// Every response carries `X-Server-Version`, `X-Server-Api` and `X-Request-Id`.
extension DemoKRPCService {
    /// Answers one plain HTTP request.
    func answerHTTP(method: String, uri: String, headers: [(String, String)]) -> DemoService.AudioAnswer {
        let path = Self.path(of: uri)
        let request = DemoRequest(method: method, path: path, query: DemoHTTPHandler.query(of: uri), headers: headers, body: Data())
        let parts = path.split(separator: "/").map(String.init)
        let isAudio = parts.count == 5 && parts[0] == "api" && parts[1] == "v1" && parts[2] == "audio"
        let isRefusedUpgrade = (path == KRPCMount.public.path || path == KRPCMount.authed.path) && request.header("Upgrade") != nil
        if !isRefusedUpgrade { count(isAudio ? "/api/v1/audio" : path) }  // upgrades are counted when tried
        guard method == "GET" else { return .response(notFound(path)) }
        if path == "/healthz" {
            return .response(Self.response(200, contentType: "application/json", body: #"{"status":"ok"}"#))
        }
        if isAudio {
            return service.recordAudio(audio(request, bookID: parts[3], fileID: parts[4]), method: method, path: path,
                                       bookID: parts[3], fileID: parts[4], headers: headers)
        }
        if parts.count == 4, parts[0] == "api", parts[1] == "v1", parts[2] == "covers" {
            return .response(bearerCover(request, bookID: parts[3]))
        }
        if parts.count == 5, parts[0] == "api", parts[1] == "v1", parts[2] == "books", parts[4] == "cover" {
            return .response(bearerCover(request, bookID: parts[3]))
        }
        if parts.count == 5, parts[0] == "api", parts[1] == "v1",
           (parts[2], parts[4]) == ("contributors", "photo") || (parts[2], parts[4]) == ("series", "cover") {
            return .response(browseImage(request, kind: parts[2], id: parts[3]))
        }
        if parts.count == 4, parts[0] == "api", parts[1] == "v1", parts[2] == "cover-cast" {
            guard let userID = signer.verifyCover(query: request.query, bookID: parts[3]) else { return .response(Self.response(403)) }
            guard knows(userID: userID) else { return .response(Self.response(404)) }
            return .response(cover(request, bookID: parts[3]))
        }
        if path == KRPCMount.authed.path, request.header("Upgrade")?.lowercased() == "websocket" {
            // The upgrade was refused: no, an invalid, an expired or a revoked token.
            return .response(Self.unauthorized())
        }
        return .response(notFound(path))
    }

    /// `GET /api/v1/audio/{bookId}/{fileId}?u=&exp=&sig=`: the signature is
    /// the only authorisation (403 empty when missing, wrong or expired;
    /// 404 for an unknown user, book or file); `Range` gives 206, an
    /// unsatisfiable one 416.
    private func audio(_ request: DemoRequest, bookID: String, fileID: String) -> DemoService.AudioAnswer {
        guard let userID = signer.verifyAudio(query: request.query, bookID: bookID, fileID: fileID) else {
            return .response(Self.response(403))
        }
        if let refusal = service.takeAudioRefusal() { return .response(Self.response(refusal)) }
        guard knows(userID: userID), let book = service.books.first(where: { $0.id == bookID }),
              let file = DemoAudio.file(fileID, of: book) else { return .response(Self.response(404)) }
        let total = file.size
        guard let header = request.header("Range") else {
            return .stream(file, range: 0..<total, status: 200, total: total, cutAfter: service.takeAudioCut())
        }
        switch DemoAudio.byteRange(header, total: total) {
        case .success(let range):
            return .stream(file, range: range, status: 206, total: total, cutAfter: service.takeAudioCut())
        case .failure:
            var response = Self.response(416)
            response.headers.append(("Content-Range", "bytes */\(total)"))
            return .response(response)
        }
    }

    /// `GET /api/v1/covers/{bookId}` (and `/api/v1/books/{bookId}/cover`):
    /// a valid access token of a live session, else 401.
    private func bearerCover(_ request: DemoRequest, bookID: String) -> DemoResponse {
        guard tokens.principal(bearer: request.header("Authorization")) != nil else { return Self.unauthorized() }
        return cover(request, bookID: bookID)
    }

    /// The cover bytes: the generated PNG (`image/png`), `ETag: "<hash>"`,
    /// immutable for a year, 304 on a matching `If-None-Match`, 404 for a
    /// book without a cover. `?w=` snaps up to the rungs 300 and 600 and
    /// tags the ETag `"<hash>@<rung>"`; the bytes are the same original PNG
    /// (the real server falls back to the original when its codec declines).
    private func cover(_ request: DemoRequest, bookID: String) -> DemoResponse {
        guard let book = service.books.first(where: { $0.id == bookID }), book.coverImage != nil else { return Self.response(404) }
        var tag = DemoKRPCMapping.coverHash(bookID: bookID)
        if let width = request.query["w"].flatMap({ Int($0) }) { tag += width <= 300 ? "@300" : "@600" }
        let etag = "\"\(tag)\""
        let caching = [("ETag", etag), ("Cache-Control", "private, max-age=31536000, immutable")]
        let asked = (request.header("If-None-Match") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if asked.contains(etag) || asked.contains("*") {
            var response = Self.response(304)
            response.headers += caching
            return response
        }
        var response = DemoResponse(status: 200, contentType: "image/png", body: DemoLibrary.cover(for: bookID))
        response.headers = Self.versionHeaders() + caching
        return response
    }

    /// `GET /api/v1/contributors/{id}/photo`, `GET /api/v1/series/{id}/cover`:
    /// Bearer, no caching headers, the stored file labelled by its
    /// extension (`image/jpeg`), 404 `not_found` when there is none.
    private func browseImage(_ request: DemoRequest, kind: String, id: String) -> DemoResponse {
        guard tokens.principal(bearer: request.header("Authorization")) != nil else { return Self.unauthorized() }
        guard let bytes = kind == "series" ? service.seriesCover(id: id) : service.contributorPhoto(id: id) else {
            return notFound(request.path)
        }
        var response = DemoResponse(status: 200, contentType: "image/jpeg", body: bytes)
        response.headers = Self.versionHeaders()
        return response
    }

    private func knows(userID: String) -> Bool {
        service.state.withLock { $0.users.contains { $0.id == userID } }
    }

    private func notFound(_ path: String) -> DemoResponse {
        var body = JSONWriter.object()
        body.string("error", "not_found")
        body.string("path", path)
        return Self.response(404, contentType: "application/json", body: body.finished())
    }

    /// The bearer challenge of a refused token: 401, no body.
    private static func unauthorized() -> DemoResponse {
        var response = response(401)
        response.headers.append(("WWW-Authenticate", "Bearer realm=\"listenup\""))
        return response
    }

    /// A response with the version headers; no body and no `Content-Type` by default.
    private static func response(_ status: Int, contentType: String = "", body: String = "") -> DemoResponse {
        DemoResponse(status: status, contentType: contentType, body: Data(body.utf8), headers: versionHeaders())
    }
}
