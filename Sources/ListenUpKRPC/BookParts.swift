import JSONToolkit

/// A book's cover (`CoverPayload`): where the bytes live and their hash,
/// which is also the cover route's `ETag` (§4, §6.6), so it keys a cache.
public struct CoverPayload: Codable, Sendable, Equatable {
    /// FILESYSTEM, EMBEDDED, UPLOADED or ENRICHED.
    public var source: CoverSource
    /// Content hash.
    public var hash: String

    /// Creates a cover; each parameter sets the property of the same name.
    public init(source: CoverSource, hash: String) {
        self.source = source
        self.hash = hash
    }
}

/// `CoverPayload.source`. Open: unknown names are kept.
public struct CoverSource: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String
    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"EMBEDDED"`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An image file in the book's folder.
    public static let filesystem = CoverSource(rawValue: "FILESYSTEM")
    /// Artwork inside an audio file.
    public static let embedded = CoverSource(rawValue: "EMBEDDED")
    /// Uploaded by a user.
    public static let uploaded = CoverSource(rawValue: "UPLOADED")
    /// Downloaded from a metadata provider.
    public static let enriched = CoverSource(rawValue: "ENRICHED")
    /// The name.
    public var description: String { rawValue }
}

/// `BookSyncPayload.chapterSource`. Open: unknown names are kept.
public struct ChapterSource: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as sent.
    public let rawValue: String
    /// Wraps a name.
    /// - Parameter rawValue: e.g. `"USER"`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Read from the audio files (the default).
    public static let embedded = ChapterSource(rawValue: "EMBEDDED")
    /// Looked up from Audible/Audnexus.
    public static let audnexus = ChapterSource(rawValue: "AUDNEXUS")
    /// Edited by hand; rescans keep them.
    public static let user = ChapterSource(rawValue: "USER")
    /// The name.
    public var description: String { rawValue }
}

/// A credit on a book (`BookContributorPayload`).
public struct BookContributorPayload: Codable, Sendable, Equatable {
    /// The contributor's id.
    public var id: String
    /// The name.
    public var name: String
    /// The name to sort by.
    public var sortName: String?
    /// The role, e.g. `author` or `narrator`.
    public var role: ContributorRole
    /// A one-off credited name ("writing as").
    public var creditedAs: String?

    /// Creates a credit; each parameter sets the property of the same name.
    public init(id: String, name: String, sortName: String? = nil, role: ContributorRole, creditedAs: String? = nil) {
        self.id = id
        self.name = name
        self.sortName = sortName
        self.role = role
        self.creditedAs = creditedAs
    }
}

/// A contributor's role. Matched case-insensitively, like the server's
/// `ContributorRole.fromApiValue`: the raw value is kept lowercased. Open:
/// unknown roles are kept.
public struct ContributorRole: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The role, lowercased.
    public let rawValue: String
    /// Wraps a role, lowercasing it.
    /// - Parameter rawValue: e.g. `"Narrator"`.
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    /// `author`.
    public static let author = ContributorRole(rawValue: "author")
    /// `narrator`.
    public static let narrator = ContributorRole(rawValue: "narrator")
    /// `editor`.
    public static let editor = ContributorRole(rawValue: "editor")
    /// `translator`.
    public static let translator = ContributorRole(rawValue: "translator")
    /// `foreword`.
    public static let foreword = ContributorRole(rawValue: "foreword")
    /// `introduction`.
    public static let introduction = ContributorRole(rawValue: "introduction")
    /// `afterword`.
    public static let afterword = ContributorRole(rawValue: "afterword")
    /// `producer`.
    public static let producer = ContributorRole(rawValue: "producer")
    /// `adapter`.
    public static let adapter = ContributorRole(rawValue: "adapter")
    /// `illustrator`.
    public static let illustrator = ContributorRole(rawValue: "illustrator")
    /// The role.
    public var description: String { rawValue }
}

/// A book's place in a series (`BookSeriesPayload`).
public struct BookSeriesPayload: Codable, Sendable, Equatable {
    /// The series' id.
    public var id: String
    /// The series' name.
    public var name: String
    /// The position, e.g. 1.5; nil when unnumbered. Older servers send a
    /// quoted label: its leading number is read (`"1-3"` → 1), and a label
    /// that does not start with a digit (`"Prequel"`) reads as nil.
    public var sequence: Double?

    /// Creates a membership; each parameter sets the property of the same name.
    public init(id: String, name: String, sequence: Double?) {
        self.id = id
        self.name = name
        self.sequence = sequence
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, sequence
    }

    /// Decodes a membership; `sequence` may be a number, a quoted label or null.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let sequence: Double?
        switch try c.decodeIfPresent(JSONValue.self, forKey: .sequence) {
        case .integer(let value): sequence = Double(value)
        case .double(let value): sequence = value
        case .string(let label): sequence = Self.parseSequence(label)
        default: sequence = nil
        }
        self.init(id: try c.decode(String.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
                  sequence: sequence)
    }

    /// Writes every key; `sequence` always as a number or `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(sequence, forKey: .sequence)
    }

    /// The server's `parseSeriesSequence`: the leading `\d+(\.\d+)?` of the
    /// trimmed label, or nil when the label does not start with a digit.
    /// - Parameter label: a free-form sequence label.
    /// - Returns: the number, or nil.
    public static func parseSequence(_ label: String) -> Double? {
        let scalars = Array(label.unicodeScalars.drop { $0.properties.isWhitespace })
        func isDigit(_ index: Int) -> Bool { index < scalars.count && ("0"..."9").contains(scalars[index]) }
        var end = 0
        while isDigit(end) { end += 1 }
        guard end > 0 else { return nil }
        if end < scalars.count, scalars[end] == ".", isDigit(end + 1) {
            end += 1
            while isDigit(end) { end += 1 }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[0..<end])
        return Double(text)
    }
}

/// A genre on a book (`BookGenrePayload`).
public struct BookGenrePayload: Codable, Sendable, Equatable {
    /// The genre's id.
    public var id: String
    /// Display name.
    public var name: String
    /// URL-safe name.
    public var slug: String
    /// Its place in the genre tree.
    public var path: String

    /// Creates a genre; each parameter sets the property of the same name.
    public init(id: String, name: String, slug: String, path: String) {
        self.id = id
        self.name = name
        self.slug = slug
        self.path = path
    }
}
