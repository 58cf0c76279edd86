import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import XCTest
@testable import ListenUpUI

/// The grid's decoded covers: bounded by their pixels' bytes as well as by
/// count, least recently used dropped first.
final class CoverTextureCacheTests: XCTestCase {
    /// A `width`×`height` PNG, one colour.
    static func png(width: Int32, height: Int32) throws -> Data {
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x3366_99FF)
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "png", nil, nil, &error) != 0, let buffer else {
            g_clear_error(&error)
            throw XCTSkip("GdkPixbuf cannot write PNG here")
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }

    /// Decodes on the worker thread `CoverTexture.decode` uses, from this
    /// synchronous test.
    static func decoded(_ data: Data, size: Int) throws -> CoverTexture {
        let result = LockedValue<CoverTexture?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            result.value = await CoverTexture.decode(data, size: size)
            done.signal()
        }
        done.wait()
        return try XCTUnwrap(result.value)
    }

    func testTheBudgetInBytesDropsTheLeastRecentlyUsedCover() throws {
        // A 2:3 cover fits 150 px as 100×150 (60,000 bytes); a square one
        // as 150×150 (90,000).
        let tall = try Self.decoded(Self.png(width: 120, height: 180), size: 150)
        let square = try Self.decoded(Self.png(width: 300, height: 300), size: 150)
        XCTAssertEqual(tall.bytes, 60_000)
        XCTAssertEqual(square.bytes, 90_000)
        MainActor.assumeIsolated {
            let cache = CoverTextureCache(capacity: 10, byteBudget: 200_000)
            cache["a"] = tall
            cache["b"] = tall
            cache["c"] = tall
            XCTAssertEqual(cache.bytes, 180_000)
            XCTAssertNotNil(cache["a"], "a is used again: b is now the oldest")
            cache["d"] = square
            XCTAssertNil(cache["b"], "over the budget: the least recently used goes")
            XCTAssertNil(cache["c"], "and the next, until the cache is within it")
            XCTAssertNotNil(cache["a"])
            XCTAssertNotNil(cache["d"])
            XCTAssertEqual(cache.bytes, 150_000)

            // Replacing a cover counts its new size only.
            cache["a"] = square
            XCTAssertEqual(cache.bytes, 180_000)
            XCTAssertEqual(cache.count, 2)

            // The newest stays even when it alone is over the budget.
            let small = CoverTextureCache(capacity: 10, byteBudget: 50_000)
            small["x"] = square
            XCTAssertEqual(small.count, 1)

            // And the count still bounds it.
            let few = CoverTextureCache(capacity: 2, byteBudget: 1 << 20)
            few["1"] = tall
            few["2"] = tall
            few["3"] = tall
            XCTAssertEqual(few.count, 2)
            XCTAssertNil(few["1"])
        }
    }
}
