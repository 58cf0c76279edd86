import Foundation

/// The download rules, as pure functions: which books start, what a file
/// on disk means, whether a book fits, and what each failure leads to.
/// ``DownloadsModel`` carries them out; tests check them without I/O.
public enum DownloadRules {
    /// Books downloading at the same time.
    public static let concurrentBooks = 2

    /// The books to start now: the queued ones, oldest request first, as
    /// many as fit beside those `running`.
    public static func toStart(_ downloads: [BookDownload], running: Int, limit: Int = concurrentBooks) -> [String] {
        let free = max(0, limit - running)
        guard free > 0 else { return [] }
        return downloads.filter { $0.status == .queued }
            .sorted { ($0.requestedAt, $0.bookID) < ($1.requestedAt, $1.bookID) }
            .prefix(free).map(\.bookID)
    }

    /// What to do with a file that has `onDisk` bytes of `size`.
    public enum FileStep: Equatable, Sendable {
        /// It is whole.
        case done
        /// Ask for the rest, from this byte.
        case fetch(from: Int64)
        /// It is longer than the server says: delete it and fetch it all.
        case refetch
    }

    public static func step(onDisk: Int64, size: Int64) -> FileStep {
        if onDisk == size { return .done }
        if onDisk > size { return .refetch }
        return .fetch(from: max(0, onDisk))
    }

    /// Refuses a book that needs more than the disk has free: `needed`
    /// bytes still to fetch, `available` free (nil: unknown, allowed).
    public static func spaceRefusal(needed: Int64, available: Int64?) -> BookDownload.Failure? {
        guard let available, needed > available else { return nil }
        return .noSpace(needed: needed, available: available)
    }

    /// What a fetch's failure leads to.
    public enum Reaction: Equatable, Sendable {
        /// Ask the server for fresh access (a refreshed token, or signed
        /// URLs prepared again), then try the file again.
        case refreshAccess
        /// Delete the file and fetch it from the start.
        case refetch
        /// Stop; the problem may pass: try again later (``BookDownload/Status/paused``).
        case pause(BookDownload.Failure)
        /// Stop until the user tries again (``BookDownload/Status/failed``).
        case fail(BookDownload.Failure)
        /// Stopped on purpose: nothing to say.
        case stop
    }

    /// - Parameters:
    ///   - refreshed: fresh access was asked for already for this file.
    ///   - refetched: the file was fetched from the start already.
    public static func reaction(to failure: AudioFileFetcher.Failure, refreshed: Bool, refetched: Bool) -> Reaction {
        switch failure {
        case .cancelled:
            return .stop
        case .status(401), .status(403):
            guard refreshed else { return .refreshAccess }
            return .fail(failure == .status(401) ? sessionLapsed : forbidden)
        case .status(404), .status(410):
            return .fail(notFound)
        case .status(416), .oversized:
            return refetched ? .fail(sizeMismatch) : .refetch
        case .status(let status) where status == 408 || status == 429 || status >= 500:
            return .pause(network)
        case .status:
            return .fail(BookDownload.Failure(.refused))
        case .network:
            return .pause(network)
        case .diskFull:
            return .pause(BookDownload.Failure(.diskFull))
        case .storage:
            return .fail(BookDownload.Failure(.storage))
        }
    }

    /// Waits before a download paused by the network is tried again by
    /// itself: the `attempt`th wait (0-based), growing to 5 minutes.
    public static func retryDelay(attempt: Int, delays: [Duration]) -> Duration? {
        guard !delays.isEmpty else { return nil }
        return delays[min(max(0, attempt), delays.count - 1)]
    }

    /// The waits of ``retryDelay(attempt:delays:)`` in the app.
    public static let retryDelays: [Duration] = [.seconds(5), .seconds(15), .seconds(30), .seconds(60), .seconds(120), .seconds(300)]

    static var network: BookDownload.Failure { BookDownload.Failure(.network) }
    static var sessionLapsed: BookDownload.Failure { BookDownload.Failure(.sessionLapsed) }
    static var forbidden: BookDownload.Failure { BookDownload.Failure(.forbidden) }
    static var notFound: BookDownload.Failure { BookDownload.Failure(.notFound) }
    static var sizeMismatch: BookDownload.Failure { BookDownload.Failure(.sizeMismatch) }
}

extension Localization {
    /// A size in bytes as GNOME writes it (decimal units: "512.3 MB",
    /// "1.2 GB", "830 kB", "12 bytes"), numbers in the user's locale.
    public static func bytes(_ count: Int64) -> String {
        let units: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        let value = Double(count)
        for (scale, unit) in units where value >= scale {
            let scaled = value / scale
            let text = scaled.formatted(.number.precision(.fractionLength(scaled < 100 ? 1 : 0)).locale(numberLocale))
            return "\(text) \(unit)"
        }
        return trn("%@ byte", "%@ bytes", count: Int(clamping: count), number(Int(clamping: count)))
    }
}
