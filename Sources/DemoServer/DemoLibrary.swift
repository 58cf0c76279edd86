import Foundation
import ListenUpAPI
import PNGEncoding

/// How much each generated book carries.
public enum DemoPayload: String, Sendable, CaseIterable {
    /// The demo's historic shape: 3–12 chapters, 2–4 files, an author and a
    /// narrator, no series, no description (the tests' default).
    case compact
    /// The shape of a real library: 10–60 chapters, 1–30 audio files, 1–4
    /// contributors, a series, genres, publisher and year, and a description
    /// of 1–2 KB in HTML paragraphs, as metadata providers write them; and
    /// the library's facets: a genre tree, tags, moods and collections
    /// (DemoFacets.swift).
    case realistic
}

/// A deterministic generated library: the same seed gives the same books,
/// and the contributors and series they name.
///
/// People come from a pool of ``peopleCount(books:)`` (one per five books:
/// 2,000 at 10,000 books), each with a unique name; a series' books share
/// their author. Series (realistic books only) hold ``seriesLength`` books
/// each: 1,000 at 10,000 books.
struct DemoLibrary {
    let books: [SyncBook]
    /// Everyone the books credit, in order of first appearance.
    let contributors: [DemoContributor]
    /// Every series the books are in, in order of first appearance.
    let series: [DemoSeries]

    /// - Parameters:
    ///   - chapterSeconds: when set, every chapter lasts that long (short
    ///     books for tests); otherwise books last 1 to 11 hours.
    ///   - filePerChapter: every chapter in a file of its own, as many
    ///     audiobooks come (a jump to a chapter opens a file at its start);
    ///     otherwise files are cut elsewhere than the chapters.
    ///   - payload: how much each book carries. Ids, titles, the first
    ///     author, creation times and (without `chapterSeconds`) durations
    ///     are the same in both shapes; the rest of a realistic book comes
    ///     from a generator seeded by the seed and its index alone.
    init(count: Int, seed: UInt64, now: Date, chapterSeconds: Double? = nil, filePerChapter: Bool = false, payload: DemoPayload = .compact) {
        var random = SplitMix64(seed: seed)
        var books: [SyncBook] = []
        books.reserveCapacity(count)
        let people = Self.peopleCount(books: count)
        for index in 0..<count {
            let title = "The \(Self.adjectives[random.next(Self.adjectives.count)]) \(Self.nouns[random.next(Self.nouns.count)])"
            // Two names used to be drawn here; the draws stay, so every
            // later draw (titles, durations) is what it was.
            for _ in 0..<2 { _ = (random.next(Self.first.count), random.next(Self.last.count)) }
            // The people: from the pool, by a generator of their own. A
            // series' worth of consecutive books share an author.
            var group = SplitMix64(seed: (seed ^ 0xA076_1D64_78BD_642F) &+ UInt64(index / Self.seriesLength) &* 0x9E37_79B9_7F4A_7C15)
            var cast = SplitMix64(seed: (seed ^ 0xE703_7ED1_A0B4_28DB) &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let authorPerson = group.next(people)
            var narratorPerson = cast.next(people)
            while narratorPerson == authorPerson { narratorPerson = cast.next(people) }
            let author = Self.person(authorPerson).name
            let narrator = Self.person(narratorPerson).name
            let id = "book-" + String(format: "%021d", index + 1)
            // The audio's shape comes from a generator of its own, so the
            // titles and durations are those of earlier versions.
            var shape = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
            var chapterCount = 3 + shape.next(10)
            var fileCount = 2 + shape.next(3)
            // A realistic book's extras: a third generator, so the shapes
            // above stay as they were.
            var extra = SplitMix64(seed: (seed ^ 0xD1B5_4A32_D192_ED03) &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            if payload == .realistic {
                chapterCount = Self.realisticChapters.lowerBound + extra.next(Self.realisticChapters.count)
                fileCount = Self.realisticFiles.lowerBound + extra.next(Self.realisticFiles.count)
            }
            let realistic = Int64(3_600_000 + random.next(40) * 900_000)
            let duration = chapterSeconds.map { Int64($0 * 1_000) * Int64(chapterCount) } ?? realistic
            let created = now.addingTimeInterval(-Double(count - index) * 3600)
            let layout = DemoAudio.layout(bookID: id, index: index, duration: duration, chapters: chapterCount,
                                          files: filePerChapter ? nil : fileCount, modTime: Int64(created.timeIntervalSince1970 * 1000),
                                          fileStride: filePerChapter ? 64 : payload == .realistic ? 32 : 16)
            var book = SyncBook(
                createdAt: created, updatedAt: created, id: id, title: count > 1 ? "\(title) \(index + 1)" : title,
                path: "/audiobooks/\(author)/\(title)",
                audioFiles: layout.files,
                totalDuration: duration, totalSize: layout.files.reduce(0) { $0 + $1.size },
                contributors: [
                    BookContributor(contributorID: Self.contributorID(authorPerson), name: author, roles: ["author"]),
                    BookContributor(contributorID: Self.contributorID(narratorPerson), name: narrator, roles: ["narrator"]),
                ]
            )
            book.scannedAt = created
            book.author = author
            book.narrator = narrator
            book.coverImage = CoverImage(path: "", filename: "cover.png", format: "image/png", size: 0)
            book.chapters = layout.chapters
            if payload == .realistic {
                Self.fillRealistic(&book, index: index, author: authorPerson, narrator: narratorPerson, people: people, random: &extra)
            }
            books.append(book)
        }
        self.books = books
        contributors = Self.contributors(of: books)
        series = Self.series(of: books)
    }

    /// The pool of people a library of `books` books draws from.
    static func peopleCount(books: Int) -> Int {
        max(first.count, books / 5)
    }

    /// The id of person `number` of the pool.
    static func contributorID(_ number: Int) -> String {
        "contributor-\(number + 1)"
    }

    /// Person `number` of the pool: a given and a family name, and from the
    /// 121st on middle initials (`A.` … `Z.`, `A. A.` …), so no two share a name.
    static func person(_ number: Int) -> (name: String, sortName: String) {
        let given = first[number % first.count]
        let family = last[(number / first.count) % last.count]
        var generation = number / (first.count * last.count)
        var initials: [String] = []
        while generation > 0 {
            generation -= 1
            initials.insert(String(UnicodeScalar(UInt8(65 + generation % 26))) + ".", at: 0)
            generation /= 26
        }
        let givenNames = ([given] + initials).joined(separator: " ")
        return ("\(givenNames) \(family)", "\(family), \(givenNames)")
    }

    static let adjectives = ["Silent", "Golden", "Northern", "Hidden", "Last", "Burning", "Glass", "Winter", "Distant", "Quiet",
                             "Iron", "Painted", "Forgotten", "Salt", "Paper", "Midnight", "Hollow", "Crimson", "Wandering", "Lantern"]
    static let nouns = ["Harbor", "Orchard", "Cartographer", "Lighthouse", "Station", "Garden", "Archive", "River", "Clockmaker",
                        "Meridian", "Forest", "Observatory", "Library", "Tide", "Mountain", "Bridge", "Atlas", "Signal", "Ember", "Compass"]
    static let first = ["Ingrid", "Tomás", "Amara", "Felix", "Yuki", "Odile", "Rafael", "Priya", "Jonas", "Mireille", "Kwame", "Hana"]
    static let last = ["Solberg", "Okafor", "Whitcombe", "Lindqvist", "Moreau", "Castellanos", "Nakamura", "Adeyemi", "Brennan", "Petrov"]

    /// A realistic book's chapters, audio files, contributors and description length (bytes of UTF-8).
    static let realisticChapters = 10...60
    static let realisticFiles = 1...30
    static let realisticContributors = 1...4
    static let realisticDescriptionBytes = 1024...2048
    /// Books per generated series.
    static let seriesLength = 10

    /// Gives `book` the rest of a real library's payload: contributors
    /// (1–4 people; a lone author narrates), a series, genres, publisher,
    /// year, language, identifiers and a description; chapter titles with names.
    private static func fillRealistic(_ book: inout SyncBook, index: Int, author: Int, narrator: Int, people: Int,
                                      random: inout SplitMix64) {
        var used = [author]
        func someone() -> Int {
            while true {
                let number = random.next(people)
                if !used.contains(number) {
                    used.append(number)
                    return number
                }
            }
        }
        func credit(_ number: Int, _ roles: [String]) -> BookContributor {
            BookContributor(contributorID: contributorID(number), name: person(number).name, roles: roles)
        }
        let count = realisticContributors.lowerBound + random.next(realisticContributors.count)
        var contributors = [credit(author, count == 1 ? ["author", "narrator"] : ["author"])]
        if count >= 4 {
            contributors.append(credit(someone(), ["author"]))
        }
        if count >= 2 {
            let reader = used.contains(narrator) ? someone() : narrator
            if !used.contains(reader) { used.append(reader) }
            contributors.append(credit(reader, ["narrator"]))
        }
        if count >= 3 {
            contributors.append(credit(someone(), ["translator"]))
        }
        book.contributors = contributors
        book.author = book.names(withRole: "author").joined(separator: ", ")
        book.narrator = book.names(withRole: "narrator").joined(separator: ", ")

        let seriesNumber = index / seriesLength
        let seriesName = Self.seriesName(seriesNumber)
        let position = index % seriesLength + 1
        // The last book of each series is a novella after the one before (9.5).
        let sequence = position == seriesLength ? "\(position - 1).5" : "\(position)"
        let seriesID = "series-\(seriesNumber + 1)"
        book.series = [SeriesLink(seriesID: seriesID, sequence: sequence)]
        book.seriesInfo = [SeriesInfo(seriesID: seriesID, name: seriesName, sequence: sequence)]
        book.seriesName = seriesName

        let genreCount = 1 + random.next(3)
        var genreIndices: [Int] = []
        while genreIndices.count < genreCount {
            let next = random.next(genres.count)
            if !genreIndices.contains(next) { genreIndices.append(next) }
        }
        book.genres = genreIndices.map { genres[$0] }
        book.genreIDs = genreIndices.map { "genre-\($0 + 1)" }

        if random.next(2) == 0 {
            book.subtitle = "A \(adjectives[random.next(adjectives.count)]) \(nouns[random.next(nouns.count)]) Novel"
        }
        book.publisher = publishers[random.next(publishers.count)]
        book.publishYear = String(1950 + random.next(76))
        book.language = "en"
        book.isbn = "978" + String(format: "%010d", (index * 7_919 + 1_000_003) % 10_000_000_000)
        book.asin = "B0" + String(format: "%08X", UInt32(truncatingIfNeeded: index &* 2_654_435_761))
        let authorName = person(author).name
        book.description = description(title: book.title, author: authorName, narrator: book.narrator ?? authorName,
                                       series: seriesName, random: &random)
        book.chapters = book.chapters?.map { chapter in
            var named = chapter
            named.title = "Chapter \(chapter.index + 1): \(adjectives[random.next(adjectives.count)]) \(nouns[random.next(nouns.count)])"
            return named
        }
    }

    /// Series `number`'s name: 400 distinct, then numbered ("… Cycle 2").
    static func seriesName(_ number: Int) -> String {
        let base = "The \(adjectives[number % adjectives.count]) \(nouns[(number / adjectives.count) % nouns.count]) Cycle"
        let round = number / (adjectives.count * nouns.count)
        return round == 0 ? base : "\(base) \(round + 1)"
    }

    static let genres = ["Fantasy", "Science Fiction", "Mystery", "Historical Fiction", "Thriller", "Biography", "History",
                         "Literary Fiction", "Adventure", "Poetry", "Philosophy", "Travel"]
    static let publishers = ["Meridian Audio", "Lantern House", "Northern Tide Press", "Salt & Paper Audio", "Glass Harbor Books"]

    /// A description of 1–2 KB (UTF-8): HTML paragraphs of generated
    /// sentences with the typography providers use (curly quotes, dashes).
    private static func description(title: String, author: String, narrator: String, series: String,
                                    random: inout SplitMix64) -> String {
        let openers = [
            "In \(title), \(author) returns to the world of \(series) with a story of loss, courage and second chances.",
            "\(author)’s most ambitious novel yet — “a triumph,” said one critic — follows a family across three generations.",
            "Narrated by \(narrator), this edition of \(title) brings every voice of the \(series) to life.",
        ]
        let sentences = [
            "When the \(nouns[random.next(nouns.count)].lowercased()) falls silent, nobody in the village dares to ask why.",
            "She has kept the secret for twenty years; now the \(adjectives[random.next(adjectives.count)].lowercased()) letters are arriving again.",
            "Part mystery, part love story, it asks what we owe the people we leave behind — and what they owe us.",
            "Across the \(adjectives[random.next(adjectives.count)].lowercased()) \(nouns[random.next(nouns.count)].lowercased()), an old map points to a place that should not exist.",
            "“Nothing is ever truly lost,” her grandmother told her, “only misplaced by people in a hurry.”",
            "Told in alternating voices, the novel moves between the harbor town and a city that never sleeps.",
            "Each chapter opens with an entry from a ship’s log, written by a captain who vanished in 1893.",
            "It is a book about maps and the places they leave out, about families and the stories they refuse to tell.",
            "Fans of sweeping historical sagas & quiet literary fiction alike will find something to treasure here.",
            "The \(adjectives[random.next(adjectives.count)]) \(nouns[random.next(nouns.count)]) Prize shortlisted this work in its first year.",
        ]
        let target = realisticDescriptionBytes.lowerBound + random.next(800)
        var paragraphs: [String] = []
        var paragraph = openers[random.next(openers.count)]
        var length = 0
        while length + paragraph.utf8.count + 7 < target {
            if random.next(4) == 0 {
                paragraphs.append("<p>\(paragraph)</p>")
                length += paragraph.utf8.count + 7
                paragraph = sentences[random.next(sentences.count)]
            } else {
                paragraph += " " + sentences[random.next(sentences.count)]
            }
        }
        paragraphs.append("<p>\(paragraph)</p>")
        return paragraphs.joined()
    }

    /// A 120×180 cover for `bookID`: a two-colour gradient picked from its id.
    static func cover(for bookID: String) -> Data {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: bookID.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }))
        let top = (UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)))
        let bottom = (UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)))
        let width = 120, height = 180
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let t = Double(y) / Double(height - 1)
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(Double(a) * (1 - t) + Double(b) * t) }
            let band = (y / 20) % 2 == 0 ? 0 : 12
            for _ in 0..<width {
                pixels.append(mix(top.0, bottom.0) &+ UInt8(band))
                pixels.append(mix(top.1, bottom.1))
                pixels.append(mix(top.2, bottom.2))
            }
        }
        return PNGEncoder.encode(width: width, height: height, pixels: pixels)
    }
}

/// A small, fast, seedable generator (not for secrets).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextRaw() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        Int(nextRaw() % UInt64(bound))
    }
}
