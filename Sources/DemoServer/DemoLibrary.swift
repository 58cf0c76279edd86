import Foundation
import ListenUpAPI
import PNGEncoding

/// A deterministic generated library: the same seed gives the same books.
struct DemoLibrary {
    let books: [SyncBook]

    /// - Parameter chapterSeconds: when set, every chapter lasts that long
    ///   (short books for tests); otherwise books last 1 to 11 hours.
    init(count: Int, seed: UInt64, now: Date, chapterSeconds: Double? = nil) {
        var random = SplitMix64(seed: seed)
        let adjectives = ["Silent", "Golden", "Northern", "Hidden", "Last", "Burning", "Glass", "Winter", "Distant", "Quiet",
                          "Iron", "Painted", "Forgotten", "Salt", "Paper", "Midnight", "Hollow", "Crimson", "Wandering", "Lantern"]
        let nouns = ["Harbor", "Orchard", "Cartographer", "Lighthouse", "Station", "Garden", "Archive", "River", "Clockmaker",
                     "Meridian", "Forest", "Observatory", "Library", "Tide", "Mountain", "Bridge", "Atlas", "Signal", "Ember", "Compass"]
        let first = ["Ingrid", "Tomás", "Amara", "Felix", "Yuki", "Odile", "Rafael", "Priya", "Jonas", "Mireille", "Kwame", "Hana"]
        let last = ["Solberg", "Okafor", "Whitcombe", "Lindqvist", "Moreau", "Castellanos", "Nakamura", "Adeyemi", "Brennan", "Petrov"]
        var books: [SyncBook] = []
        books.reserveCapacity(count)
        for index in 0..<count {
            let title = "The \(adjectives[random.next(adjectives.count)]) \(nouns[random.next(nouns.count)])"
            let author = "\(first[random.next(first.count)]) \(last[random.next(last.count)])"
            let narrator = "\(first[random.next(first.count)]) \(last[random.next(last.count)])"
            let id = "book-" + String(format: "%021d", index + 1)
            // The audio's shape comes from a generator of its own, so the
            // titles and durations are those of earlier versions.
            var shape = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
            let chapterCount = 3 + shape.next(10)
            let fileCount = 2 + shape.next(3)
            let realistic = Int64(3_600_000 + random.next(40) * 900_000)
            let duration = chapterSeconds.map { Int64($0 * 1_000) * Int64(chapterCount) } ?? realistic
            let created = now.addingTimeInterval(-Double(count - index) * 3600)
            let layout = DemoAudio.layout(bookID: id, index: index, duration: duration, chapters: chapterCount, files: fileCount,
                                          modTime: Int64(created.timeIntervalSince1970 * 1000))
            var book = SyncBook(
                createdAt: created, updatedAt: created, id: id, title: count > 1 ? "\(title) \(index + 1)" : title,
                path: "/audiobooks/\(author)/\(title)",
                audioFiles: layout.files,
                totalDuration: duration, totalSize: layout.files.reduce(0) { $0 + $1.size },
                contributors: [
                    BookContributor(contributorID: "contributor-a\(index)", name: author, roles: ["author"]),
                    BookContributor(contributorID: "contributor-n\(index)", name: narrator, roles: ["narrator"]),
                ]
            )
            book.scannedAt = created
            book.author = author
            book.narrator = narrator
            book.coverImage = CoverImage(path: "", filename: "cover.png", format: "image/png", size: 0)
            book.chapters = layout.chapters
            books.append(book)
        }
        self.books = books
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
