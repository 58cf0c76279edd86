import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import XCTest
@testable import ListenUpUI

/// The page templates: every `.ui` file is in the bundle and loads, and the
/// bundle is found where the app looks for it.
final class PageTemplatesTests: XCTestCase {
    /// The templates `data/ui/listenup.gresource.xml` lists.
    private static func listedTemplates() throws -> [String] {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(contentsOf: checkout.appendingPathComponent("data/ui/listenup.gresource.xml"), encoding: .utf8)
        return manifest.components(separatedBy: "<file>").dropFirst().compactMap { $0.components(separatedBy: ".ui</file>").first }
    }

    func testEveryListedTemplateIsInTheBundleAndLoads() throws {
        let names = try Self.listedTemplates()
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            XCTAssertFalse(names.isEmpty)
            for name in names {
                let template = PageTemplates.load(name)
                XCTAssertTrue(TemplateBundle.contains(PageTemplates.prefix + name + ".ui"), name)
                // Every template's tree has its root under the id `root`.
                let root = template.child("root", as: Widget.self)
                XCTAssertNil(gtk_widget_get_parent(root.pointer), "\(name)'s root has no parent")
            }
        }
    }

    func testAFileThatIsNotABundleIsRefused() throws {
        try MainActor.assumeIsolated {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-bundle-\(UUID()).gresource")
            try Data("<interface/>".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            XCTAssertFalse(TemplateBundle.register(path: file.path))
            XCTAssertFalse(TemplateBundle.register(path: "/nonexistent/listenup.gresource"))
        }
    }

    func testTheBundleIsLookedForInTheDataFolderThenThePrefixThenTheCheckout() {
        let installed = ResourceLocations(executable: URL(fileURLWithPath: "/opt/lu/bin/listenup"))
        XCTAssertEqual(installed.templateBundles(environment: ["LISTENUP_DATA_DIR": "/d"]),
                       ["/d/listenup.gresource", "/opt/lu/share/listenup/listenup.gresource"])
        let checkout = ResourceLocations(executable: URL(fileURLWithPath: "/src/lu/.build/x86_64-unknown-linux-gnu/debug/listenup"))
        XCTAssertEqual(checkout.templateBundles(environment: [:]).last, "/src/lu/.build/listenup.gresource")
    }
}
