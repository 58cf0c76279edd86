import Foundation
import ListenUpAPI

/// A person the demo library credits, as the server keeps them: served as
/// REST v1's `SyncContributor` and kRPC's `ContributorSyncPayload`.
struct DemoContributor: Sendable, Equatable {
    var id: String
    var name: String
    /// "Solberg, Ingrid".
    var sortName: String
    /// A short biography in HTML.
    var description: String
    /// Which photo the person has (a new one is a new number); nil: none.
    var photo: Int?
    var createdAt: Date
    var updatedAt: Date

    /// The row `/api/v1/sync/contributors` sends (REST calls the description
    /// `biography`; the Go server's `image_url` is the same for every photo).
    var rest: SyncContributor {
        SyncContributor(id: id, name: name, sortName: sortName, biography: description,
                        imageURL: photo.map { _ in "/api/v1/contributors/\(id)/image" }, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// kRPC's content-addressed `imagePath` (`contributors/<hash>.jpg`).
    var imagePath: String? {
        photo.map { "contributors/\(DemoLibrary.imageHash("\(id)@\($0)")).jpg" }
    }

    /// "Solberg, Ingrid A." for "Ingrid A. Solberg": the last word first.
    static func sortName(_ name: String) -> String {
        let words = name.split(separator: " ")
        guard words.count > 1, let family = words.last else { return name }
        return "\(family), \(words.dropLast().joined(separator: " "))"
    }
}

/// A series of the demo library: served as REST v1's `SyncSeriesItem` (which
/// has no sort name) and kRPC's `SeriesSyncPayload`.
struct DemoSeries: Sendable, Equatable {
    var id: String
    var name: String
    /// "Silent Harbor Cycle, The".
    var sortName: String
    /// A short description in HTML.
    var description: String
    /// Which cover the series has; nil: none. (REST v1 serves no series cover.)
    var cover: Int?
    var createdAt: Date
    var updatedAt: Date

    /// kRPC's content-addressed `coverPath` (`series/<hash>.jpg`).
    var coverPath: String? {
        cover.map { "series/\(DemoLibrary.imageHash("\(id)@\($0)")).jpg" }
    }

    /// The row `/api/v1/sync/series` sends.
    var rest: SyncSeriesItem {
        SyncSeriesItem(id: id, name: name, description: description, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// A leading article moved to the end: "The Last Atlas" → "Last Atlas, The".
    static func sortName(_ name: String) -> String {
        for article in ["The ", "A ", "An "] where name.hasPrefix(article) && name.count > article.count {
            return "\(name.dropFirst(article.count)), \(article.dropLast())"
        }
        return name
    }
}

extension DemoLibrary {
    /// Everyone `books` credit, once each, in order of first appearance,
    /// created with the first book that credits them.
    static func contributors(of books: [SyncBook]) -> [DemoContributor] {
        var order: [String] = []
        var found: [String: (name: String, created: Date, roles: [String: Int])] = [:]
        for book in books {
            for credit in book.contributors {
                if found[credit.contributorID] == nil {
                    order.append(credit.contributorID)
                    found[credit.contributorID] = (credit.name, book.createdAt, [:])
                }
                for role in credit.roles { found[credit.contributorID]?.roles[role, default: 0] += 1 }
            }
        }
        return order.compactMap { id in
            guard let person = found[id] else { return nil }
            return contributor(id: id, name: person.name, roles: person.roles, at: person.created)
        }
    }

    /// A contributor row for someone credited on books with `roles` (how many books each).
    static func contributor(id: String, name: String, roles: [String: Int], at date: Date) -> DemoContributor {
        let credits = roles.keys.sorted().map { role in "\(role) of \(roles[role] ?? 0)" }.joined(separator: ", ")
        let description = "<p>\(name) is credited in this library as \(credits.isEmpty ? "a contributor" : credits).</p>"
            + "<p>Born by the sea, \(name) has worked in radio, theatre and audiobooks for many years.</p>"
        // Two people in three have a photo.
        return DemoContributor(id: id, name: name, sortName: DemoContributor.sortName(name), description: description,
                               photo: imageHash(id) % 3 == 0 ? nil : 1, createdAt: date, updatedAt: date)
    }

    /// Every series `books` are in, once each, in order of first
    /// appearance, created with its first book.
    static func series(of books: [SyncBook]) -> [DemoSeries] {
        var order: [String] = []
        var found: [String: (name: String, created: Date, count: Int, author: String?)] = [:]
        for book in books {
            for info in book.seriesInfo ?? [] {
                if found[info.seriesID] == nil {
                    order.append(info.seriesID)
                    found[info.seriesID] = (info.name, book.createdAt, 0, book.names(withRole: "author").first)
                }
                found[info.seriesID]?.count += 1
            }
        }
        return order.compactMap { id in
            guard let series = found[id] else { return nil }
            let description = "<p>\(series.name): \(series.count) \(series.count == 1 ? "book" : "books")"
                + "\(series.author.map { " by \($0)" } ?? ""), told across one restless century.</p>"
            // Three series in four have a cover.
            return DemoSeries(id: id, name: series.name, sortName: DemoSeries.sortName(series.name), description: description,
                              cover: imageHash(id) % 4 == 0 ? nil : 1, createdAt: series.created, updatedAt: series.created)
        }
    }
}

extension DemoLibrary {
    /// A stable FNV-1a hash of `text` (the demo's content addresses, and
    /// which rows have an image).
    static func imageHash(_ text: String) -> UInt64 {
        text.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
    }
}
