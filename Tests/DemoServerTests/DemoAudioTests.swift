import Foundation
import Testing
@testable import DemoServer

/// The generated audio: the tone of each chapter, and any byte range a
/// slice of the whole file.
@Suite("DemoAudio")
struct DemoAudioTests {
    /// A 3-second file starting 1 s into its book, with chapters starting
    /// at 0, 1.5 s and 3.2 s on the book: it crosses two chapter starts.
    let file = DemoAudio.File(start: 1_000, duration: 3_000, chapterStarts: [0, 1_500, 3_200])

    func samples(_ data: Data) -> [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[data.startIndex + $0]) | UInt16(data[data.startIndex + $0 + 1]) << 8) }
    }

    @Test func eachSampleIsItsChaptersToneAtItsTime() {
        let whole = file.bytes(0..<file.size)
        #expect(Int64(whole.count) == file.size)
        let pcm = samples(whole.dropFirst(DemoAudio.headerSize))
        for (index, value) in pcm.enumerated() {
            let bookMs = Double(file.start) + Double(index) / 16
            let chapter = file.chapterStarts.lastIndex { Double($0) <= bookMs } ?? 0
            let since = (Double(file.start) * 16 + Double(index) - Double(file.chapterStarts[chapter]) * 16) / 16_000
            let expected = sin(2 * Double.pi * Double(DemoAudio.frequency(chapter: chapter)) * since) * 8_000
            #expect(abs(Double(value) - expected) <= 1, "sample \(index): \(value) vs \(expected)")
            if abs(Double(value) - expected) > 1 { return }
        }
    }

    @Test func anyRangeIsASliceOfTheWholeFile() {
        let whole = file.bytes(0..<file.size)
        let ranges: [Range<Int64>] = [0..<1, 0..<44, 43..<45, 44..<45, 45..<46, 101..<9_999, 47_999..<48_001, file.size - 3..<file.size, 1_000..<file.size]
        for range in ranges {
            #expect(file.bytes(range) == whole[Int(range.lowerBound)..<Int(range.upperBound)], "\(range)")
        }
    }

    /// A book with a file per chapter (as many audiobooks come): each
    /// chapter starts its own file, which lasts as long as the chapter;
    /// without it, no file starts where a chapter does.
    @Test func aFilePerChapterStartsEachChapterInAFileOfItsOwn() throws {
        let library = DemoLibrary(count: 20, seed: 7, now: Date(timeIntervalSince1970: 0), chapterSeconds: 3, filePerChapter: true)
        var fileIDs = Set<String>()
        for book in library.books {
            let chapters = try #require(book.chapters)
            #expect(book.audioFiles.count == chapters.count, "\(book.id)")
            for (chapter, file) in zip(chapters, book.audioFiles) {
                #expect(chapter.audioFileID == file.id && file.duration == chapter.endTime - chapter.startTime, "\(book.id) chapter \(chapter.index)")
            }
            fileIDs.formUnion(book.audioFiles.map(\.id))
        }
        #expect(fileIDs.count == library.books.reduce(0) { $0 + $1.audioFiles.count }, "no two files share an id")

        for book in DemoLibrary(count: 20, seed: 7, now: Date(timeIntervalSince1970: 0), chapterSeconds: 3).books {
            var start: Int64 = 0
            let fileStarts = Set(book.audioFiles.map { file in defer { start += file.duration }; return start })
            let chapterStarts = Set((book.chapters ?? []).map(\.startTime))
            #expect(fileStarts.intersection(chapterStarts) == [0], "\(book.id): files cut elsewhere than the chapters")
        }
    }
}
