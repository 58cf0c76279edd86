import GtkBridge
import XCTest

final class RendererChoiceTests: XCTestCase {
    private let gpu = ["card0", "renderD128"]

    func testAGPURenderNodeKeepsGTKsChoice() {
        XCTAssertEqual(RendererChoice.decide(environment: [:], renderNodes: gpu, gtkMinorVersion: 8), .gtkDefault)
    }

    func testNoRenderNodeChoosesCairoWithGLOff() {
        let choice = RendererChoice.decide(environment: [:], renderNodes: ["card0"], gtkMinorVersion: 8)
        XCTAssertEqual(choice.settings, ["GSK_RENDERER": "cairo", "GDK_DEBUG": "gl-disable"])
        XCTAssertEqual(choice.reason, "no GPU render node in /dev/dri")
        XCTAssertEqual(RendererChoice.decide(environment: [:], renderNodes: [], gtkMinorVersion: 8).settings["GSK_RENDERER"], "cairo")
    }

    func testSoftwareGLRequestedChoosesCairo() {
        let forced = RendererChoice.decide(environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], renderNodes: gpu, gtkMinorVersion: 8)
        XCTAssertEqual(forced.settings["GSK_RENDERER"], "cairo")
        let gallium = RendererChoice.decide(environment: ["GALLIUM_DRIVER": "llvmpipe"], renderNodes: gpu, gtkMinorVersion: 8)
        XCTAssertEqual(gallium.reason, "GALLIUM_DRIVER is llvmpipe")
        XCTAssertEqual(RendererChoice.decide(environment: ["LIBGL_ALWAYS_SOFTWARE": "0"], renderNodes: gpu, gtkMinorVersion: 8), .gtkDefault)
    }

    func testTheUsersRendererAlwaysStands() {
        XCTAssertEqual(RendererChoice.decide(environment: ["GSK_RENDERER": "gl"], renderNodes: [], gtkMinorVersion: 8), .gtkDefault)
        XCTAssertEqual(RendererChoice.decide(environment: ["GSK_RENDERER": "cairo"], renderNodes: [], gtkMinorVersion: 8), .gtkDefault)
    }

    func testTheUsersDebugFlagsAreKept() {
        let choice = RendererChoice.decide(environment: ["GDK_DEBUG": "events"], renderNodes: [], gtkMinorVersion: 8)
        XCTAssertEqual(choice.settings["GDK_DEBUG"], "events,gl-disable")
        let already = RendererChoice.decide(environment: ["GDK_DEBUG": "gl-disable"], renderNodes: [], gtkMinorVersion: 8)
        XCTAssertEqual(already.settings["GDK_DEBUG"], "gl-disable")
    }

    func testNewerGTKTurnsGLOffThroughGDKDisable() {
        let choice = RendererChoice.decide(environment: ["GDK_DISABLE": "vulkan"], renderNodes: [], gtkMinorVersion: 16)
        XCTAssertEqual(choice.settings, ["GSK_RENDERER": "cairo", "GDK_DISABLE": "vulkan,gl"])
    }
}
