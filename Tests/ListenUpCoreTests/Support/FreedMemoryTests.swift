import Foundation
import Testing
@testable import ListenUpCore

/// Free pages malloc keeps below a live allocation go back to the system.
@Suite("Freed memory")
struct FreedMemoryTests {
    /// Resident anonymous memory of this process, in KiB.
    private static func residentAnonymousKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func pagesFreedBelowALiveAllocationAreReturned() throws {
        // 48 MiB in small blocks (malloc's heap, not separate mappings),
        // each written so that it is resident; then all freed but the
        // last, which keeps free() itself from shrinking the heap.
        let blocks = (0..<12_288).compactMap { _ -> UnsafeMutableRawPointer? in
            guard let block = malloc(4_096) else { return nil }
            memset(block, 1, 4_096)
            return block
        }
        #expect(blocks.count == 12_288)
        for block in blocks.dropLast() { free(block) }
        defer { blocks.last.map { free($0) } }
        let kept = try Self.residentAnonymousKiB()
        FreedMemory.releaseNow()
        let after = try Self.residentAnonymousKiB()
        // Other tests run meanwhile, so only most of the 48 MiB is asked for.
        #expect(kept - after > 32 * 1_024, "\(kept) KiB before, \(after) KiB after")
    }
}
