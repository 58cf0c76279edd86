import GRDB
import ListenUpCore

/// The first books of each order, read without the rest (migration
/// `v9-first-screen`): what a window draws of a large library before the
/// whole library is read (``LibraryReadAhead/FirstScreen``).
///
/// Each sort has an index on the same keys ``LibraryIndex`` orders by, so
/// SQLite reads the first books of an order as a few pages of that index
/// and their rows. Without one, it passed over every row of the table:
/// 33,000 pages at 50,000 books, as long as a third of the whole read
/// (docs/performance.md).
extension SQLiteLibraryStore {
    /// The first line of `searchKey`: ``LibraryIndex``'s title key.
    private static let titleKey = "substr(searchKey, 1, instr(searchKey || char(10), char(10)) - 1)"

    /// Its second line: the author key.
    private static let authorKey = {
        let rest = "substr(searchKey, instr(searchKey || char(10), char(10)) + 1)"
        return "substr(\(rest), 1, instr(\(rest) || char(10), char(10)) - 1)"
    }()

    /// The keys of `sort`'s order, as ``LibraryIndex`` compares them. Text
    /// compares as bytes (SQLite's BINARY collation is `memcmp`, as
    /// ``LibraryIndex`` compares its keys), ties by title and then id;
    /// books with no author go last. An index and a query must spell an
    /// expression alike for SQLite to read one through the other.
    static func orderingTerms(_ sort: LibrarySort) -> String {
        switch sort {
        case .title: "\(titleKey), id"
        case .author: "\(authorKey) = '', \(authorKey), \(titleKey), id"
        case .recentlyAdded: "createdAt DESC, \(titleKey), id"
        case .duration: "duration, \(titleKey), id"
        }
    }

    static func registerFirstScreenMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-first-screen") { db in
            for sort in LibrarySort.allCases {
                try db.execute(sql: "CREATE INDEX bookBy\(sort.indexName) ON book(\(orderingTerms(sort)))")
            }
        }
    }

    /// The first `count` books in `sort`'s order, read through its index.
    public func firstListedBooks(_ count: Int, by sort: LibrarySort) throws -> [CachedBook]? {
        try read { db in
            try Self.listed(db, where: " ORDER BY \(Self.orderingTerms(sort)) LIMIT ?", arguments: [count])
        }
    }
}

extension LibrarySort {
    /// How the sort's index is named.
    fileprivate var indexName: String {
        switch self {
        case .title: "Title"
        case .author: "Author"
        case .recentlyAdded: "RecentlyAdded"
        case .duration: "Duration"
        }
    }
}
