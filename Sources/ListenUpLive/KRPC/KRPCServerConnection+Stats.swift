import Foundation
import ListenUpCore
import ListenUpKRPC

/// Home's listening stats over kRPC (addendum §4). The totals and streaks
/// are the `user_stats` row, pulled (`pullDomain` heals a stale row, where
/// `getStats` reads it as stored); the server has no per-day breakdown, so
/// the days are counted here from the `listening_events` domain, as the
/// official app does: wall-clock seconds of each event, on the day it
/// ended in this computer's time zone.
extension KRPCServerConnection {
    public func listeningStats(days: Int) async throws(ServerError) -> ListeningStats? {
        let statsPage = try await call(.pullDomain, PullDomainArguments(domain: "user_stats", since: 0, limit: 10), returning: SyncPage.self)
        let row: UserStatsSyncPayload?
        do {
            row = try statsPage.decodeItems(as: UserStatsSyncPayload.self).last { $0.deletedAt == nil }
        } catch {
            throw .protocolMismatch("the listening stats did not decode: \(error)")
        }
        try await pullListeningEvents()
        return KRPCStats.stats(row, events: Array(listeningEvents.values), days: days, now: .now)
    }

    /// Pulls the listening events added since the last pull.
    private func pullListeningEvents() async throws(ServerError) {
        while true {
            let page = try await call(.pullDomain, PullDomainArguments(domain: SyncDomain.listeningEvents.rawValue,
                                                                       since: listeningEventsRevision, limit: 1000),
                                      returning: SyncPage.self)
            let events: [ListeningEventSyncPayload]
            do {
                events = try page.decodeItems(as: ListeningEventSyncPayload.self)
            } catch {
                throw .protocolMismatch("the listening events did not decode: \(error)")
            }
            for event in events {
                listeningEvents[event.id] = event.deletedAt == nil
                    ? KRPCStats.Span(bookID: event.bookId, startedAt: event.startedAt, endedAt: event.endedAt) : nil
            }
            let next = max(page.nextCursor ?? listeningEventsRevision, events.map(\.revision).max() ?? listeningEventsRevision)
            guard page.hasMore, next > listeningEventsRevision, !events.isEmpty else {
                listeningEventsRevision = next
                return
            }
            listeningEventsRevision = next
        }
    }
}

/// The days and books of Home's stats from kRPC's rows. Pure; any thread.
enum KRPCStats {
    /// A listening event: its book and when it began and ended (epoch ms).
    struct Span: Equatable, Sendable {
        var bookID: String
        var startedAt: Int64
        var endedAt: Int64
    }

    /// `row`'s totals with the last `days` days' listening (ending on
    /// `now`'s day in `calendar`'s zone) counted from `events`.
    static func stats(_ row: UserStatsSyncPayload?, events: [Span], days: Int, now: Date,
                      calendar: Calendar = .current) -> ListeningStats {
        let firstDay = calendar.date(byAdding: .day, value: -(max(days, 1) - 1), to: calendar.startOfDay(for: now)) ?? now
        var byDay: [String: Int64] = [:]
        var byBook: [String: Int64] = [:]
        for event in events {
            let ended = Date(timeIntervalSince1970: TimeInterval(event.endedAt) / 1000)
            guard ended >= firstDay, ended <= now.addingTimeInterval(300) else { continue }
            let seconds = max(0, event.endedAt - event.startedAt) / 1000
            byDay[ListeningStats.dayString(ended, calendar: calendar), default: 0] += seconds
            byBook[event.bookID, default: 0] += seconds
        }
        return ListeningStats(totalSeconds: row?.totalSecondsAllTime ?? 0, currentStreakDays: row?.currentStreakDays ?? 0,
                              longestStreakDays: row?.longestStreakDays ?? 0, booksFinished: row?.booksFinished ?? 0,
                              days: byDay.sorted { $0.key < $1.key }.map { ListeningStats.Day(date: $0.key, seconds: $0.value) },
                              secondsByBook: byBook)
    }
}
