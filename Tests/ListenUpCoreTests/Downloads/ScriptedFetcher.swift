import Foundation
import ListenUpCore

/// A fetcher over bytes in memory that keeps the live fetcher's contract
/// (continue from the offset, never write past the expected size, keep
/// what was written on failure), with scripted misbehaviour: a test
/// double inside unit tests only; the live fetcher is tested against a
/// real server in ListenUpLiveTests.
final class ScriptedFetcher: Sendable {
    /// What the next fetch of a file does.
    enum Step: Sendable {
        /// Writes `bytes` more, then fails.
        case failAfter(Int, AudioFileFetcher.Failure)
        /// Waits until ``release()`` (or cancellation), then serves.
        case hold
        /// Serves the file with `extra` bytes more than it has.
        case serveExtra(Int)
    }

    /// The file's bytes, by file id (the last path component of its URL).
    let sources: [String: Data]
    /// Each fetch: file id, offset, the headers sent.
    let requests = LockedValue<[(file: String, offset: Int64)]>([])
    private let steps = LockedValue<[String: [Step]]>([:])
    private let released = LockedValue(false)

    init(sources: [String: Data]) {
        self.sources = sources
    }

    func script(_ fileID: String, _ next: Step...) {
        steps.withLock { $0[fileID, default: []] += next }
    }

    func release() { released.value = true }

    var offsets: [String: [Int64]] {
        requests.value.reduce(into: [:]) { $0[$1.file, default: []].append($1.offset) }
    }

    var fetcher: AudioFileFetcher {
        AudioFileFetcher { [self] request, progress throws(AudioFileFetcher.Failure) in
            let fileID = request.url.lastPathComponent
            requests.withLock { $0.append((fileID, request.offset)) }
            let step = steps.withLock { steps -> Step? in
                guard var queue = steps[fileID], !queue.isEmpty else { return nil }
                let first = queue.removeFirst()
                steps[fileID] = queue
                return first
            }
            guard var data = sources[fileID] else { throw .status(404) }
            var failure: AudioFileFetcher.Failure?
            var limit = Int64(data.count)
            switch step {
            case .failAfter(let bytes, let error):
                limit = min(limit, request.offset + Int64(bytes))
                failure = error
            case .hold:
                while !released.value {
                    if Task.isCancelled { throw .cancelled }
                    try? await Task.sleep(for: .milliseconds(5))
                }
            case .serveExtra(let extra):
                data.append(Data(repeating: 0xEE, count: extra))
                limit = Int64(data.count)
            case nil:
                break
            }
            if Task.isCancelled { throw .cancelled }
            if !FileManager.default.fileExists(atPath: request.destination.path) {
                _ = FileManager.default.createFile(atPath: request.destination.path, contents: nil)
            }
            guard let handle = try? FileHandle(forWritingTo: request.destination) else { throw .storage("open") }
            defer { try? handle.close() }
            do {
                try handle.truncate(atOffset: UInt64(request.offset))
                try handle.seek(toOffset: UInt64(request.offset))
                let end = min(limit, request.expectedSize)
                if end > request.offset {
                    try handle.write(contentsOf: data[Int(request.offset)..<Int(end)])
                    progress(end - request.offset)
                }
                if limit > request.expectedSize { failure = failure ?? .oversized }
            } catch {
                throw .storage("\(error)")
            }
            if let failure { throw failure }
        }
    }
}
