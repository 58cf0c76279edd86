import AsyncHTTPClient
import Foundation
import ListenUpCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
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
    /// The body goes to the file as it arrives: each buffer is written with
    /// `pwrite(2)` by the thread that read it from the socket, before the
    /// next is read (the connection waits for the disk, memory stays flat
    /// for any file size, and no buffer crosses threads, which keeps pace
    /// with curl on loopback). Those threads are the downloads' own, so a
    /// write waiting on a busy disk holds up no other request.
    ///
    /// Nothing is forced to the disk (no `fsync`): a process killed midway
    /// loses nothing the kernel has, and after a power cut a file is as
    /// long as what reached the disk (ext4's default ordered mode writes
    /// the size after the data), which the next start finds short and
    /// continues. A flush at the end would cost about as long as the
    /// download itself on loopback (all of a big file's dirty pages).
    ///
    /// Progress reports the file's length minus the request's `offset`
    /// (negative at first when a `200` made it start over), so `offset + n`
    /// is always what is in the file; it is called on a download thread.
    /// Timeouts: 10 s to connect, 30 s without a byte; none on the whole
    /// transfer. Header values and query strings (a kRPC URL's signature)
    /// are never logged.
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
/// its own configuration, connection pool and threads: a long download
/// never holds up the library's requests, and no deadline applies to its
/// body. It lives as long as the process, so it is never shut down.
enum LiveDownloads {
    /// The threads that read the downloads' sockets and write their files
    /// (the writes block them): one per book downloading at once.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: DownloadRules.concurrentBooks)

    /// The library's configuration (a refused connection is an answer: the
    /// server is down, pause), with 30 s of silence ending a body: an idle
    /// time, not a deadline on the transfer.
    static let client = HTTPClient(eventLoopGroup: group, configuration: LiveHTTP.configuration(read: .seconds(30)))

    static func fetch(_ request: AudioFileFetcher.Request, progress: @escaping @Sendable (Int64) -> Void,
                      logger: Logger) async throws(AudioFileFetcher.Failure) {
        if Task.isCancelled { throw .cancelled }
        var headers = HTTPHeaders()
        for (name, value) in request.headers { headers.replaceOrAdd(name: name, value: value) }
        headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        if request.offset > 0 { headers.replaceOrAdd(name: "Range", value: "bytes=\(request.offset)-") }
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(url: request.url.absoluteString, method: .GET, headers: headers)
        } catch {
            throw .network("the address cannot be asked for")
        }
        let writer = FileWritingDelegate(request: request, progress: progress, logger: logger)
        let task = client.execute(request: outgoing, delegate: writer, eventLoop: .indifferent, deadline: nil, logger: nil)
        // The file is closed on the task's thread once the last write is done.
        let finished = task.futureResult.always { _ in writer.close() }
        do {
            try await withTaskCancellationHandler {
                try await finished.get()
            } onCancel: {
                task.cancel()
            }
        } catch let error as AudioFileFetcher.Failure {
            throw Task.isCancelled ? .cancelled : error
        } catch {
            throw failure(classifying: error)
        }
        // A cancellation that came as the body ended.
        if Task.isCancelled { throw .cancelled }
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

/// Writes one response's body to its file, on the thread that reads it.
///
/// `@unchecked Sendable`: AsyncHTTPClient calls every method on the task's
/// event loop, one at a time, and ``close()`` runs there too (a callback of
/// the task's future); nothing else touches `file` or `position`.
private final class FileWritingDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = Void

    private let request: AudioFileFetcher.Request
    private let progress: @Sendable (Int64) -> Void
    private let logger: Logger
    private var file: DownloadFile?
    /// Where the next byte goes in the file.
    private var position: Int64 = 0

    init(request: AudioFileFetcher.Request, progress: @escaping @Sendable (Int64) -> Void, logger: Logger) {
        self.request = request
        self.progress = progress
        self.logger = logger
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let start: Int64
        switch head.status.code {
        case 206:
            guard let first = LiveDownloads.firstByte(contentRange: head.headers.first(name: "Content-Range")), first == request.offset else {
                logger.debug("A partial answer does not start where the file stopped", metadata: ["path": "\(request.url.path)"])
                return task.eventLoop.makeFailedFuture(AudioFileFetcher.Failure.status(206))
            }
            start = request.offset
        case 200:
            if request.offset > 0 {
                logger.debug("The server sent the whole file again; it starts over",
                             metadata: ["path": "\(request.url.path)", "offset": "\(request.offset)"])
            }
            start = 0
        default:
            return task.eventLoop.makeFailedFuture(AudioFileFetcher.Failure.status(Int(head.status.code)))
        }
        do throws(AudioFileFetcher.Failure) {
            file = try DownloadFile(opening: request.destination, at: start)
            position = start
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard let file else { return task.eventLoop.makeFailedFuture(AudioFileFetcher.Failure.storage("the file is closed")) }
        let room = request.expectedSize - position
        let oversized = Int64(buffer.readableBytes) > room
        let count = oversized ? Int(max(0, room)) : buffer.readableBytes
        do {
            try buffer.withUnsafeReadableBytes { bytes throws(AudioFileFetcher.Failure) in
                try file.write(UnsafeRawBufferPointer(rebasing: bytes.prefix(count)), at: position)
            }
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
        position += Int64(count)
        progress(position - request.offset)
        if oversized {
            logger.debug("The server sent more than the file's size; cut there",
                         metadata: ["path": "\(request.url.path)", "size": "\(request.expectedSize)"])
            return task.eventLoop.makeFailedFuture(AudioFileFetcher.Failure.oversized)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {}

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}

    /// Closes the file (once the task has ended).
    func close() {
        file?.close()
        file = nil
    }
}

/// The destination file of one fetch, open for writing. Not thread-safe:
/// one fetch uses it, and closes it.
private struct DownloadFile {
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

    func close() {
        Glibc.close(descriptor)
    }

    private static func failure(_ code: Int32, _ operation: String) -> AudioFileFetcher.Failure {
        if code == ENOSPC || code == EDQUOT { return .diskFull }
        return .storage("\(operation): \(String(cString: strerror(code)))")
    }
}
