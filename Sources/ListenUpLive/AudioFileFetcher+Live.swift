import AsyncHTTPClient
import Foundation
import ListenUpCore
import Logging
import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#endif

extension AudioFileFetcher {
    /// The real network, through a download client of its own
    /// (AsyncHTTPClient; redirects never followed: a 3xx is a
    /// ``Failure/status(_:)``).
    ///
    /// Asks for the rest of a partial file (`Range: bytes=<offset>-`) and
    /// takes a `206` whose `Content-Range` starts there, or a `200` (the
    /// server ignored the range: the file starts over from its first byte).
    /// The body goes to the file as it arrives, each buffer written with
    /// `pwrite(2)` before the next is asked for: the connection waits for
    /// the disk, and memory stays flat for any file size. A file is flushed
    /// to the disk (`fdatasync`) once, when it is whole, so a book never
    /// counts as downloaded on data that a power cut could take back; a
    /// partial file is not (the next run goes on from whatever is there).
    ///
    /// Progress reports the file's length minus the request's `offset`
    /// (negative at first when a `200` made it start over), so `offset + n`
    /// is always what is in the file. Timeouts: 10 s to connect, 30 s
    /// without a byte; none on the whole transfer. Header values and query
    /// strings (a kRPC URL's signature) are never logged.
    ///
    /// - Parameter logger: where a download's notable turns are logged (debug level).
    /// - Returns: a fetcher safe to call from any task, several at once.
    public static func live(logger: Logger) -> AudioFileFetcher {
        AudioFileFetcher { request, progress throws(Failure) in
            try await LiveDownloads.fetch(request, progress: progress, logger: logger)
        }
    }
}

/// The process-wide client behind ``AudioFileFetcher/live(logger:)``, with
/// its own configuration and connection pool: a long download never holds
/// up the library's requests, and no deadline applies to its body. It lives
/// as long as the process, so it is never shut down.
enum LiveDownloads {
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            // `read` is the idle time between two reads of the body (and
            // before the head), not a deadline on the transfer.
            timeout: .init(connect: .seconds(10), read: .seconds(30)),
            decompression: .disabled
        )
        // A refused connection is an answer (the server is down: pause),
        // not something to retry: the request has no deadline to stop it.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    static func fetch(_ request: AudioFileFetcher.Request, progress: @escaping @Sendable (Int64) -> Void,
                      logger: Logger) async throws(AudioFileFetcher.Failure) {
        if Task.isCancelled { throw .cancelled }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .GET
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        outgoing.headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        if request.offset > 0 { outgoing.headers.replaceOrAdd(name: "Range", value: "bytes=\(request.offset)-") }

        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: .distantFuture)
        } catch {
            throw failure(classifying: error)
        }

        // Where the body starts in the file.
        let start: Int64
        switch response.status.code {
        case 206:
            guard let first = firstByte(contentRange: response.headers.first(name: "Content-Range")), first == request.offset else {
                logger.debug("A partial answer does not start where the file stopped", metadata: ["path": "\(request.url.path)"])
                throw .status(206)
            }
            start = request.offset
        case 200:
            if request.offset > 0 {
                logger.debug("The server sent the whole file again; it starts over",
                             metadata: ["path": "\(request.url.path)", "offset": "\(request.offset)"])
            }
            start = 0
        default:
            throw .status(Int(response.status.code))
        }

        let file = try DownloadFile(opening: request.destination, at: start)
        var position = start
        do {
            for try await buffer in response.body {
                if Task.isCancelled { throw AudioFileFetcher.Failure.cancelled }
                let room = request.expectedSize - position
                let oversized = Int64(buffer.readableBytes) > room
                let count = oversized ? Int(max(0, room)) : buffer.readableBytes
                try buffer.withUnsafeReadableBytes { bytes throws(AudioFileFetcher.Failure) in
                    try file.write(UnsafeRawBufferPointer(rebasing: bytes.prefix(count)), at: position)
                }
                position += Int64(count)
                progress(position - request.offset)
                if oversized {
                    logger.debug("The server sent more than the file's size; cut there",
                                 metadata: ["path": "\(request.url.path)", "size": "\(request.expectedSize)"])
                    throw AudioFileFetcher.Failure.oversized
                }
            }
        } catch let error as AudioFileFetcher.Failure {
            throw error
        } catch {
            throw failure(classifying: error)
        }
        // An iteration ended by cancellation may just stop: not a whole body.
        if Task.isCancelled { throw .cancelled }
        if position == request.expectedSize { try file.flush() }
    }

    /// The first byte of `bytes <first>-<last>/<total>`, or nil.
    static func firstByte(contentRange: String?) -> Int64? {
        guard let contentRange, contentRange.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = contentRange.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash])
    }

    /// Sorts what AsyncHTTPClient or SwiftNIO threw (the house
    /// classification of ``TransportError``): a cancelled task is
    /// ``AudioFileFetcher/Failure/cancelled``, everything else the network's.
    static func failure(classifying error: any Error) -> AudioFileFetcher.Failure {
        if Task.isCancelled { return .cancelled }
        switch TransportError(classifying: error, limit: 0) {
        case .cancelled: return .cancelled
        case .timedOut: return .network("timed out")
        case .unreachable(let reason): return .network(reason)
        case .tlsFailure(let reason): return .network("TLS: \(reason)")
        case .invalidResponse(let reason): return .network(reason)
        case .bodyTooLarge: return .network("body too large")
        }
    }
}

/// The destination file of one fetch, open for writing; closed when it
/// goes. Not thread-safe: one fetch uses it.
private struct DownloadFile: ~Copyable {
    let descriptor: Int32

    /// Opens (making it, `0600`) the file at `url` for writing from byte
    /// `start`: bytes past it are cut off. Its folder is made when absent.
    init(opening url: URL, at start: Int64) throws(AudioFileFetcher.Failure) {
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(errno, "open") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Self.failure(code, "stat")
        }
        // A file shorter than where the fetch starts was changed behind
        // the caller's back: writing there would leave a hole.
        guard Int64(info.st_size) >= start else {
            Glibc.close(descriptor)
            throw .storage("the file is shorter than the bytes it should have")
        }
        if Int64(info.st_size) > start, ftruncate(descriptor, off_t(start)) != 0 {
            let code = errno
            Glibc.close(descriptor)
            throw Self.failure(code, "truncate")
        }
        self.descriptor = descriptor
    }

    /// Writes all of `bytes` at `offset`, through partial writes and signals.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioFileFetcher.Failure) {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        var position = offset
        while remaining > 0 {
            let written = pwrite(descriptor, pointer, remaining, off_t(position))
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(errno, "write")
            }
            pointer += written
            remaining -= written
            position += Int64(written)
        }
    }

    /// Puts the file's data on the disk.
    func flush() throws(AudioFileFetcher.Failure) {
        while fdatasync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw Self.failure(errno, "sync")
        }
    }

    deinit {
        Glibc.close(descriptor)
    }

    private static func failure(_ code: Int32, _ operation: String) -> AudioFileFetcher.Failure {
        if code == ENOSPC || code == EDQUOT { return .diskFull }
        return .storage("\(operation): \(String(cString: strerror(code)))")
    }
}
