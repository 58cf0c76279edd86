import Foundation
import ListenUpAPI

/// The demo server's audio: WAV files (PCM S16LE, mono, 16 kHz) computed
/// on the fly for any byte range, so hours-long books cost no storage and
/// a `Range` request costs only the bytes it asks for.
///
/// Every chapter is a tone of its own, so a test can tell from what it
/// hears which chapter plays: chapter `i` (0-based, on the book timeline)
/// is a sine of ``frequency(chapter:)`` = 300 Hz + 100 Hz × (i mod 10).
/// Files are cut at other points than chapters, so chapters cross files.
public enum DemoAudio {
    public static let sampleRate = 16_000
    /// Bytes of audio per millisecond (16 samples of 2 bytes).
    static let bytesPerMillisecond = 32
    static let headerSize = 44

    /// The tone of chapter `index`.
    public static func frequency(chapter index: Int) -> Int {
        300 + 100 * (index % 10)
    }

    /// The size of a file of `duration` milliseconds.
    static func size(duration: Int64) -> Int64 {
        Int64(headerSize) + duration * Int64(bytesPerMillisecond)
    }

    /// What a file is made of: where it sits on the book and the chapters'
    /// starts (milliseconds) that decide the tone.
    struct File: Sendable {
        var start: Int64
        var duration: Int64
        var chapterStarts: [Int64]

        var size: Int64 { DemoAudio.size(duration: duration) }

        /// Bytes `range` of the file.
        func bytes(_ range: Range<Int64>) -> Data {
            var data = Data(capacity: Int(range.count))
            if range.lowerBound < Int64(headerSize) {
                let header = DemoAudio.header(dataBytes: Int(duration) * bytesPerMillisecond)
                data.append(header[Int(range.lowerBound)..<Int(min(range.upperBound, Int64(headerSize)))])
            }
            let firstByte = max(range.lowerBound, Int64(headerSize)) - Int64(headerSize)
            let lastByte = range.upperBound - Int64(headerSize)
            guard lastByte > firstByte else { return data }
            // Whole samples around the range, then the bytes asked for.
            // Every tone is a multiple of 100 Hz, so it repeats every 160
            // samples at 16 kHz: each sample is copied from one period
            // computed once (a bench serving 500 MB is not held up by sin).
            let firstSample = firstByte / 2
            let endSample = (lastByte + 1) / 2
            var samples = [UInt8]()
            samples.reserveCapacity(Int(endSample - firstSample) * 2)
            let perMillisecond = Int64(sampleRate / 1_000)
            var chapter = 0
            var sample = firstSample
            while sample < endSample {
                let bookSample = start * perMillisecond + sample
                while chapter + 1 < chapterStarts.count, chapterStarts[chapter + 1] * perMillisecond <= bookSample { chapter += 1 }
                // Up to the next chapter's start (or the end of the range).
                let nextStart = chapter + 1 < chapterStarts.count ? chapterStarts[chapter + 1] * perMillisecond - start * perMillisecond : endSample
                let runEnd = min(endSample, max(sample + 1, nextStart))
                let tone = DemoAudio.periods[(chapter % 10)]
                let offset = (bookSample - chapterStarts[chapter] * perMillisecond) % Int64(DemoAudio.period)
                var phase = Int(offset < 0 ? offset + Int64(DemoAudio.period) : offset)
                // Whole stretches of the period at a time, not sample by
                // sample: the tests serve megabytes from a debug build.
                var left = Int(runEnd - sample)
                while left > 0 {
                    let count = min(left, DemoAudio.period - phase)
                    samples.append(contentsOf: tone[(phase * 2)..<((phase + count) * 2)])
                    left -= count
                    phase = (phase + count) % DemoAudio.period
                }
                sample = runEnd
            }
            let skip = Int(firstByte - firstSample * 2)
            data.append(contentsOf: samples[skip..<(skip + Int(lastByte - firstByte))])
            return data
        }
    }

    /// Samples in one period of every tone (300…1200 Hz, multiples of 100 Hz, at 16 kHz).
    static let period = sampleRate / 100

    /// One period of each chapter tone (chapter `i mod 10`), as S16LE bytes.
    static let periods: [[UInt8]] = (0..<10).map { index in
        (0..<period).flatMap { sample -> [UInt8] in
            let since = Double(sample) / Double(sampleRate)
            let value = Int16((sin(2 * Double.pi * Double(frequency(chapter: index)) * since) * 8_000).rounded())
            let bits = UInt16(bitPattern: value)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
    }

    /// The 44-byte RIFF/WAVE header of `dataBytes` of audio.
    static func header(dataBytes: Int) -> Data {
        var data = Data()
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1) // PCM
        append16(1) // mono
        append32(sampleRate)
        append32(sampleRate * 2)
        append16(2)
        append16(16)
        append("data")
        append32(dataBytes)
        return data
    }

    /// Why a `Range` header cannot be served.
    enum RangeProblem: Error {
        /// Not one `bytes=a-b` range.
        case malformed
        /// Starts past the end, or ends before it starts.
        case unsatisfiable
    }

    /// The bytes a `Range` header asks for in a file of `total` bytes:
    /// `bytes=a-b`, `bytes=a-` or the suffix `bytes=-n`; one range only.
    static func byteRange(_ header: String, total: Int64) -> Result<Range<Int64>, RangeProblem> {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .failure(.malformed) }
        let bounds = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return .failure(.malformed) }
        if bounds[0].isEmpty, let suffix = Int64(bounds[1]) {
            return .success(max(0, total - suffix)..<total)
        }
        guard let start = Int64(bounds[0]) else { return .failure(.malformed) }
        let end = bounds[1].isEmpty ? total - 1 : min(Int64(bounds[1]) ?? total - 1, total - 1)
        guard start < total, start <= end else { return .failure(.unsatisfiable) }
        return .success(start..<(end + 1))
    }

    /// The file `fileID` of `book`, or nil.
    static func file(_ fileID: String, of book: SyncBook) -> File? {
        var start: Int64 = 0
        let chapterStarts = (book.chapters ?? []).map(\.startTime).sorted()
        for file in book.audioFiles {
            if file.id == fileID { return File(start: start, duration: file.duration, chapterStarts: chapterStarts.isEmpty ? [0] : chapterStarts) }
            start += file.duration
        }
        return nil
    }

    /// A book's files and chapters: `chapters` chapters of `duration`
    /// split into `files` files, cut at other points than the chapters
    /// wherever the fractions allow, or with `files` nil a file for each
    /// chapter. File ids and inodes count from `index × fileStride`, so
    /// books of up to `fileStride` files never share one.
    static func layout(bookID: String, index: Int, duration: Int64, chapters: Int, files: Int?, modTime: Int64,
                       fileStride: Int = 16) -> (files: [AudioFile], chapters: [Chapter]) {
        let chapterStarts = (0..<chapters).map { duration * Int64($0) / Int64(chapters) }
        let cuts: [Int64]
        if let files {
            // File boundaries at 3/7 steps, chapters at even steps: never the same point.
            cuts = [0] + (1..<files).map { duration * Int64($0 * 7 - 3) / Int64(files * 7) } + [duration]
        } else {
            cuts = chapterStarts + [duration]
        }
        let files = cuts.count - 1
        let fileIDs = (0..<files).map { "af-\(String(index * fileStride + $0 + 0x1000, radix: 16))" }
        let audio = (0..<files).map { position in
            let length = cuts[position + 1] - cuts[position]
            return AudioFile(id: fileIDs[position], path: "/audiobooks/\(bookID)/part\(position + 1).wav", filename: "part\(position + 1).wav",
                             format: "wav", codec: "pcm_s16le", size: size(duration: length), duration: length, bitrate: sampleRate * 16,
                             inode: Int64(index * fileStride + position + 0x1000), modTime: modTime)
        }
        let chapterList = (0..<chapters).map { number in
            let start = chapterStarts[number]
            let end = duration * Int64(number + 1) / Int64(chapters)
            let file = cuts.lastIndex { $0 <= start }.map { min($0, files - 1) } ?? 0
            return Chapter(title: "Chapter \(number + 1)", audioFileID: fileIDs[file], index: number, startTime: start, endTime: end)
        }
        return (audio, chapterList)
    }
}
