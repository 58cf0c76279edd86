import JSONToolkit

// The junction rows (`book_tags`, `book_moods`, `collection_books`) are most
// of a first browse sync's rows: tens of thousands of small items, each JSON
// text of its own, which `JSONDecoder` took most of that sync's time to
// read. Read by hand like the books (Sync+JSONReader.swift): exactly what
// `init(from:)` gives, or an error so that `JSONDecoder` decides.

extension MembershipSyncPayload: JSONReadable {
    private enum Field: String, CaseIterable, Sendable {
        case id, bookId, tagId, moodId, collectionId, createdAt, revision, deletedAt
    }

    private static let fields = JSONFields<Field>()

    public init(reading reader: inout JSONReader) throws(JSONReadError) {
        var id: String?, bookId: String?, tag: String?, mood: String?, collection: String?
        var createdAt: Int64?, revision: Int64?, deletedAt: Int64?
        try reader.object(Self.fields) { field, reader throws(JSONReadError) in
            switch field {
            case .id: id = try reader.string()
            case .bookId: bookId = try reader.string()
            // `init(from:)` takes the first of the three present, in this
            // order, and refuses a null there: so does `string()`.
            case .tagId: tag = try reader.string()
            case .moodId: mood = try reader.string()
            case .collectionId: collection = try reader.string()
            case .createdAt: createdAt = try reader.int64()
            case .revision: revision = try reader.int64()
            case .deletedAt: deletedAt = try reader.optionalInt64()
            }
        }
        self.init(id: try reader.required(id), bookId: try reader.required(bookId), groupId: try reader.required(tag ?? mood ?? collection),
                  createdAt: try reader.required(createdAt), revision: try reader.required(revision), deletedAt: deletedAt)
    }
}
