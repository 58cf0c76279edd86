import Foundation
import ListenUpAPI

/// A genre of the demo's tree: served as kRPC's `GenreSyncPayload` and
/// REST v1's `/api/v1/genres` rows.
struct DemoGenre: Sendable, Equatable {
    var id: String
    var name: String
    var slug: String
    /// `/fiction/fantasy`.
    var path: String
    var parentID: String?
    var depth: Int
    var sortOrder: Int
    var createdAt: Date
    var updatedAt: Date
}

/// A tag or a mood (kRPC `Tag`/`Mood`; REST v1 has tags only, without a name).
struct DemoLabel: Sendable, Equatable {
    var id: String
    var name: String
    var slug: String
    var createdAt: Date
    var updatedAt: Date
}

/// A collection of the library (kRPC `CollectionSyncPayload`; REST v1
/// `/api/v1/libraries/{libraryId}/collections`).
struct DemoCollection: Sendable, Equatable {
    var id: String
    var name: String
    var libraryID: String
    /// Who made it (the demo's collections are the server's own library's).
    var ownerID = "demo-curator"
    var createdAt: Date
    var updatedAt: Date
}

/// A book in a tag, mood or collection: a junction row with an opaque id
/// that is reused when the book is added again (addendum §2.1).
struct DemoMembership: Sendable, Equatable {
    enum Kind: String, Sendable {
        case tag, mood, collection

        /// The kRPC key of the group's id (`tagId`, `moodId`, `collectionId`).
        var groupKey: String { "\(rawValue)Id" }

        var domain: DemoSyncDomain {
            switch self {
            case .tag: .bookTags
            case .mood: .bookMoods
            case .collection: .collectionBooks
            }
        }
    }

    var id: String
    var bookID: String
    var groupID: String
    var createdAt: Date
}

/// The demo library's facets (realistic payloads only): a tree of 40
/// genres, 300 tags, 20 moods, 4 collections, and which books each holds,
/// chosen from each book's index so the books' own draws stay what they were.
struct DemoFacets: Sendable {
    var genres: [DemoGenre] = []
    var tags: [DemoLabel] = []
    var moods: [DemoLabel] = []
    var collections: [DemoCollection] = []
    /// Live junction rows by kind and id.
    var members: [DemoMembership.Kind: [String: DemoMembership]] = [:]
    /// Every junction row ever written, by kind and "<group>|<book>": a book
    /// added again gets its old id back.
    var ids: [DemoMembership.Kind: [String: String]] = [:]

    /// The tree: two roots, the twelve genres books name (`genre-1`…`genre-12`,
    /// ``DemoLibrary/genres``) under them, and 26 narrower ones.
    static let tree: [(name: String, parent: String?)] = {
        var tree: [(String, String?)] = []
        let fiction = ["Fantasy", "Science Fiction", "Mystery", "Historical Fiction", "Thriller", "Literary Fiction", "Adventure", "Poetry"]
        for name in DemoLibrary.genres { tree.append((name, fiction.contains(name) ? "Fiction" : "Nonfiction")) }
        tree += [("Fiction", nil), ("Nonfiction", nil)]
        let narrower: [(String, [String])] = [
            ("Fantasy", ["Epic Fantasy", "Urban Fantasy", "Fairy Tales"]), ("Science Fiction", ["Space Opera", "Cyberpunk", "Time Travel"]),
            ("Mystery", ["Cozy Mystery", "Police Procedural", "Noir"]), ("Historical Fiction", ["Ancient World", "Regency"]),
            ("Thriller", ["Espionage", "Legal Thriller", "Psychological Thriller"]), ("Biography", ["Memoir", "Letters"]),
            ("History", ["Military History", "Maritime History"]), ("Literary Fiction", ["Family Saga", "Coming of Age"]),
            ("Adventure", ["Sea Adventure", "Exploration"]), ("Poetry", ["Epic Poetry"]), ("Philosophy", ["Ethics", "Stoicism"]),
            ("Travel", ["Travel Writing"]),
        ]
        for (parent, names) in narrower { tree += names.map { ($0, parent) } }
        return tree
    }()

    static let moodNames = ["Adventurous", "Calm", "Cozy", "Dark", "Eerie", "Emotional", "Funny", "Gritty", "Heartwarming", "Hopeful",
                            "Inspiring", "Lighthearted", "Melancholy", "Mysterious", "Reflective", "Romantic", "Suspenseful", "Tense",
                            "Uplifting", "Whimsical"]
    static let collectionNames = ["Staff Picks", "Book Club", "Road Trip", "Bedtime Stories"]
    static let tagCount = 300

    static func slug(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: "'", with: "").replacingOccurrences(of: " ", with: "-")
    }

    /// The slug path and depth of a genre of ``tree``.
    static func place(of name: String) -> (path: String, depth: Int) {
        let own = "/" + slug(name)
        guard let parent = tree.first(where: { $0.name == name })?.parent else { return (own, 0) }
        let above = place(of: parent)
        return (above.path + own, above.depth + 1)
    }

    /// No facets (a state before seeding).
    init() {}

    /// The facets of `books` (their links only when `linked`) in library `libraryID`.
    init(books: [SyncBook], linked: Bool, libraryID: String, at date: Date) {
        let genreIDs = Dictionary(Self.tree.enumerated().map { ($0.element.name, "genre-\($0.offset + 1)") }, uniquingKeysWith: { a, _ in a })
        genres = Self.tree.enumerated().map { index, entry in
            let place = Self.place(of: entry.name)
            return DemoGenre(id: "genre-\(index + 1)", name: entry.name, slug: Self.slug(entry.name), path: place.path,
                             parentID: entry.parent.flatMap { genreIDs[$0] }, depth: place.depth, sortOrder: index, createdAt: date,
                             updatedAt: date)
        }
        tags = (0..<Self.tagCount).map { index in
            let name = "\(DemoLibrary.adjectives[index % DemoLibrary.adjectives.count]) "
                + DemoLibrary.nouns[(index / DemoLibrary.adjectives.count) % DemoLibrary.nouns.count].lowercased()
            let unique = index < DemoLibrary.adjectives.count * DemoLibrary.nouns.count ? name : "\(name) \(index)"
            return DemoLabel(id: "tag-\(index + 1)", name: unique, slug: Self.slug(unique), createdAt: date, updatedAt: date)
        }
        moods = Self.moodNames.enumerated().map { index, name in
            DemoLabel(id: "mood-\(index + 1)", name: name, slug: Self.slug(name), createdAt: date, updatedAt: date)
        }
        collections = Self.collectionNames.enumerated().map { index, name in
            DemoCollection(id: "collection-\(index + 1)", name: name, libraryID: libraryID, createdAt: date, updatedAt: date)
        }
        guard linked else { return }
        for (index, book) in books.enumerated() {
            // One to two tags, one to two moods, and a collection for some.
            var tagIndices = [index * 7 % Self.tagCount]
            if index % 2 == 0 { tagIndices.append((index * 13 + 5) % Self.tagCount) }
            for tag in Set(tagIndices).sorted() { _ = add(.tag, book: book.id, to: tags[tag].id, at: book.createdAt) }
            var moodIndices = [index % moods.count]
            if index % 3 == 0 { moodIndices.append((index * 3 + 7) % moods.count) }
            for mood in Set(moodIndices).sorted() { _ = add(.mood, book: book.id, to: moods[mood].id, at: book.createdAt) }
            for (number, step) in [5, 7, 11, 13].enumerated() where index % step == 0 {
                _ = add(.collection, book: book.id, to: collections[number].id, at: book.createdAt)
            }
        }
    }

    /// Puts a book in a tag, mood or collection: a new row, or the one it
    /// had before (same id). Nil when it is there already.
    mutating func add(_ kind: DemoMembership.Kind, book: String, to group: String, at date: Date) -> DemoMembership? {
        let pair = "\(group)|\(book)"
        let id = ids[kind]?[pair] ?? "\(kind.rawValue)-link-\((ids[kind]?.count ?? 0) + 1)"
        guard members[kind]?[id] == nil else { return nil }
        let row = DemoMembership(id: id, bookID: book, groupID: group, createdAt: date)
        ids[kind, default: [:]][pair] = id
        members[kind, default: [:]][id] = row
        return row
    }

    /// Takes a book out; the row that was removed, nil when it was not there.
    mutating func remove(_ kind: DemoMembership.Kind, book: String, from group: String) -> DemoMembership? {
        guard let id = ids[kind]?["\(group)|\(book)"] else { return nil }
        return members[kind]?.removeValue(forKey: id)
    }

    /// How many books each group of `kind` holds, in one pass.
    func bookCounts(_ kind: DemoMembership.Kind) -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in (members[kind] ?? [:]).values { counts[row.groupID, default: 0] += 1 }
        return counts
    }

    /// The live rows of `kind` in `group`.
    func books(_ kind: DemoMembership.Kind, in group: String) -> [DemoMembership] {
        (members[kind] ?? [:]).values.filter { $0.groupID == group }.sorted { $0.bookID < $1.bookID }
    }

    /// REST v1's `tags` of each book that has any: `{id, slug, book_count}`.
    func restTags() -> [String: [Tag]] {
        var counts: [String: Int] = [:]
        var byBook: [String: [String]] = [:]
        for row in (members[.tag] ?? [:]).values {
            counts[row.groupID, default: 0] += 1
            byBook[row.bookID, default: []].append(row.groupID)
        }
        let labels = Dictionary(tags.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return byBook.mapValues { ids in
            ids.sorted().compactMap { id in labels[id].map { Tag(id: $0.id, slug: $0.slug, bookCount: counts[id] ?? 0) } }
        }
    }
}
