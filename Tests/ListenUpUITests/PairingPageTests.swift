import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore
import ListenUpTestSupport
import Logging
import Pairing
import QRCode
import XCTest
@testable import ListenUpUI

/// The pairing page end to end: the real window over a live `DiscoveryServer` on
/// 127.0.0.1. The QR is read back from a PNG of the window with zbarimg, curl
/// pairs using only that URI (pinned to its fingerprint), the page's
/// confirmation dialog is answered "pair", and the token works.
final class PairingPageTests: XCTestCase {
    func testPairsACompanionThroughTheWindow() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-pairing-ui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = DiscoveryServer.Configuration(desktopName: "UI Test Desk", appVersion: "0.1.0", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        var dependencies = Dependencies.test()
        let status = dependencies.pairingStatus
        let host = try DiscoveryServer(storage: PairingStorage(directory: directory), configuration: configuration, logger: quietLogger) {
            status.value
        }
        dependencies.pairing = .live(host)
        dependencies.qrEncoder = .libqrencode
        let shot = directory.appendingPathComponent("window.png").path

        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            var log: [String] = []
            var decoded: String?
            var modelURI: String?
            var crisp = false
            var dialogHeading: String?
            var token: String?
            var statusCode: String?
            var reportedRoute: String?
            var openAfterClose: Bool?
            var listed = false
            var revokedStatusCode: String?
            var timedOut = false
            MainContext.installDispatchBridge()
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            let app = newObject(adw_application_new("io.github.listenup.Desktop.PairingTest", G_APPLICATION_NON_UNIQUE))
            let activation = app.connect(.activate) {
                let window = MainWindow(application: app, navigator: navigator, pages: .standard, logger: quietLogger)
                window.present()
                navigator.start()
                var step = 0
                var framesPainted = 0
                var pairing: ToolProcess?
                var target: (base: String, pin: String)?
                MainContext.every(.milliseconds(20)) {
                    let page = window.currentPage
                    switch step {
                    case 0 where page is ServerSetupPage:
                        // The page's "Pair a Device…" link: it runs the primary menu's win.pair-device.
                        guard let setup = page as? ServerSetupPage else { return true }
                        emit("clicked", on: setup.pairLink)
                        step = 1
                    case 1 where (page as? PairingPage)?.showsQR == true:
                        // Read the QR once GTK has laid it out and painted it:
                        // on a loaded machine a tick can come first.
                        guard let page = page as? PairingPage else { return true }
                        FramePaint.untilDone(of: page.picture) {
                            framesPainted += 1
                            return framesPainted >= 2
                        }
                        step = 7
                    case 7 where framesPainted >= 2:
                        guard let page = page as? PairingPage, let model = navigator.activeModel as? PairingModel,
                              case .open(let uri, _, _) = model.phase else { return true }
                        modelURI = uri
                        // Every pixel of the QR picture is black or white: drawn 1:1, not smoothed.
                        if let image = WidgetRenderer.image(of: page.picture) {
                            crisp = (0..<image.height).allSatisfy { y in
                                (0..<image.width).allSatisfy { x in
                                    let p = image.pixel(x: x, y: y)
                                    return (p.red < 8 || p.red > 247) && p.red == p.green && p.green == p.blue
                                }
                            }
                        }
                        guard WidgetRenderer.savePNG(of: window.window, to: shot),
                              let read = try? ToolProcess.run(["zbarimg", "--raw", "-q", shot]) else { log.append("no PNG/zbarimg"); step = 9; return true }
                        decoded = read.output.trimmingCharacters(in: .newlines)
                        let link = PairingLinkTarget(uri: decoded ?? "")
                        let fields = link.fields, base = link.base, pin = link.pin
                        target = (base, pin)
                        let body = #"{"session":"\#(fields["session"] ?? "")","code":"\#(fields["code"] ?? "")","client_name":"UI Phone","client_model":"curl"}"#
                        pairing = try? ToolProcess(["curl", "-sk", "--max-time", "30", "--pinnedpubkey", pin, "-H", "Content-Type: application/json",
                                             "-d", body, "\(base)/api/v1/pair"])
                        step = 2
                    case 2 where (page as? PairingPage)?.dialog != nil:
                        guard let dialog = (page as? PairingPage)?.confirmationDialog else { return true }
                        dialogHeading = dialog.heading
                        dialog.respond("pair")
                        step = 3
                    case 3 where pairing?.process.isRunning == false:
                        guard let answer = pairing?.finish(), let target else { return true }
                        let reply = (try? JSONSerialization.jsonObject(with: Data(answer.output.utf8))) as? [String: Any]
                        token = reply?["token"] as? String
                        statusCode = (try? ToolProcess.run(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin, "-o", "/dev/null",
                                                     "-w", "%{http_code}", "-H", "Authorization: Bearer \(token ?? "")",
                                                     "\(target.base)/api/v1/status"]))?.output
                        let statusBody = try? ToolProcess.run(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin,
                                                        "-H", "Authorization: Bearer \(token ?? "")", "\(target.base)/api/v1/status"])
                        reportedRoute = ((try? JSONSerialization.jsonObject(with: Data((statusBody?.output ?? "").utf8))) as? [String: Any])?["active_route"] as? String
                        step = 5
                    case 5 where (page as? PairingPage)?.deviceTitles == ["UI Phone"]:
                        // The new device is listed; Revoke it.
                        guard let page = page as? PairingPage, let revoke = page.revokeButton(at: 0) else { return true }
                        listed = true
                        emit("clicked", on: revoke)
                        step = 6
                    case 6 where (page as? PairingPage)?.deviceTitles.isEmpty == true:
                        guard let page = page as? PairingPage, let target else { return true }
                        revokedStatusCode = (try? ToolProcess.run(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin, "-o", "/dev/null",
                                                            "-w", "%{http_code}", "-H", "Authorization: Bearer \(token ?? "")",
                                                            "\(target.base)/api/v1/status"]))?.output
                        emit("clicked", on: page.closeButton)
                        step = 4
                    case 4 where page is ServerSetupPage:
                        if let target {
                            let info = try? ToolProcess.run(["curl", "-sk", "--max-time", "10", "--pinnedpubkey", target.pin, "\(target.base)/api/v1/pair/info"])
                            openAfterClose = ((try? JSONSerialization.jsonObject(with: Data((info?.output ?? "").utf8))) as? [String: Any])?["pairing_open"] as? Bool
                        }
                        step = 9
                    case 9:
                        gtk_window_destroy(window.window.cast(to: GtkWindow.self))
                        return false
                    default:
                        break
                    }
                    return true
                }
            }
            let watchdog = MainContext.timeout(after: .seconds(30)) {
                timedOut = true
                g_application_quit(app.cast(to: GApplication.self))
            }
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup("test"), nil]
            _ = g_application_run(app.cast(to: GApplication.self), 1, &argv)
            activation.disconnect() // the handler stays connected until here
            free(argv[0])
            watchdog.cancel()
            g_object_unref(app)

            XCTAssertFalse(timedOut, "log: \(log)")
            XCTAssertNotNil(modelURI)
            XCTAssertEqual(decoded, modelURI, "zbarimg reads exactly the model's URI from the window")
            XCTAssertTrue(modelURI?.contains("addr=127.0.0.1") == true)
            XCTAssertTrue(crisp, "the QR is drawn pixel for pixel in pure black and white")
            XCTAssertEqual(dialogHeading, "Pair with UI Phone?")
            XCTAssertEqual(token?.count, 43)
            XCTAssertEqual(statusCode, "200")
            XCTAssertEqual(reportedRoute, "pairing", "status tells paired devices what the desktop shows")
            XCTAssertEqual(openAfterClose, false, "closing the page closes pairing")
            XCTAssertTrue(listed, "the paired device appears in the list")
            XCTAssertEqual(revokedStatusCode, "401", "Revoke stops the token at once")
            XCTAssertTrue(host.devices.isEmpty)
        }
        let done = DispatchSemaphore(value: 0)
        Task.detached { await host.stop(); done.signal() }
        done.wait()
    }

    /// HiDPI: the texture is the image upscaled by whole pixels, still pure black and white.
    func testTextureUpscalesByWholePixels() throws {
        let image = QRImage(matrix: try QRMatrix.encode("listenup-pair:v1?name=x"), moduleSize: 3)
        let doubled = PairingQRView.rgba(image, scale: 2)
        XCTAssertEqual(doubled.count, image.size * image.size * 16)
        XCTAssertEqual(PairingQRView.rgba(image, scale: 1), image.rgbaPixels)
        let side = image.size * 2
        for y in stride(from: 0, to: side, by: 7) {
            for x in stride(from: 0, to: side, by: 5) {
                XCTAssertEqual(doubled[(y * side + x) * 4], image.grayPixels[(y / 2) * image.size + x / 2])
                XCTAssertEqual(doubled[(y * side + x) * 4 + 3], 255)
            }
        }
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let texture = PairingQRView.texture(for: image, scale: 2)
            XCTAssertEqual(texture.map { Int(gdk_texture_get_width($0.pointer)) }, side)
        }
    }

    /// Previews: each state renders its parts (no network).
    func testPreviewStatesShowTheirParts() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            for (state, qr, newCode) in [("open", true, false), ("expired", false, true), ("failed", false, true), ("devices", false, true)] {
                var dependencies = Dependencies.test()
                dependencies.qrEncoder = .libqrencode
                let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
                XCTAssertTrue(navigator.preview(.pairing, state: state))
                guard let model = navigator.activeModel as? PairingModel else { return XCTFail("no model") }
                let page = PairingPage(model: model)
                let window = TestWindow(child: page.widget, width: 600, height: 900)
                XCTAssertEqual(page.showsQR, qr, state)
                XCTAssertEqual(gtk_widget_get_visible(page.newCodeButton.widget) != 0, newCode, state)
                XCTAssertEqual(page.deviceTitles.count, state == "devices" ? 3 : 1, state)
                if qr {
                    emit("clicked", on: page.copyButton)
                    XCTAssertEqual(page.copiedText?.hasPrefix("listenup-pair:v1?"), true)
                    let countdown = page.countdownLabel.text
                    XCTAssertTrue(countdown.contains(" s"), countdown)
                }
                page.teardown()
                window.close()
            }
        }
    }

    /// A request shows the confirmation over the page's window, and the
    /// page hands it out as its dialog (the screenshots take it from there).
    func testARequestShowsTheConfirmationAsThePagesDialog() {
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            var dependencies = Dependencies.test()
            dependencies.qrEncoder = .libqrencode
            let navigator = AppNavigator(registry: .standard, dependencies: dependencies)
            XCTAssertTrue(navigator.preview(.pairing, state: "request"))
            guard let model = navigator.activeModel as? PairingModel, let request = model.request else { return XCTFail("no request") }
            let page = PairingPage(model: model)
            let window = TestWindow(child: page.widget, width: 600, height: 900)
            defer { page.teardown(); window.close() }
            let routePage: any RoutePage = page
            XCTAssertNotNil(routePage.dialog)
            XCTAssertEqual(routePage.dialog.map { UnsafeMutableRawPointer($0) }, page.confirmationDialog.map { UnsafeMutableRawPointer($0.pointer) })
            XCTAssertEqual(page.confirmationDialog?.heading, "Pair with \(request.clientName)?")
            XCTAssertEqual(page.confirmationDialog?.extraChild.flatMap { Label(checking: $0) }?.text,
                           PairingConfirmation.spaced(request.comparisonCode))
        }
    }

    /// `pairing-qr.ui` and `PairingQRView`: the spinner until there is a
    /// code, then the picture at the image's size in logical pixels.
    func testTheQRViewSpinsUntilThereIsACodeThenShowsItAtItsSize() throws {
        let image = QRImage(matrix: try QRMatrix.encode("listenup-pair:v1?name=x"), moduleSize: 3)
        MainActor.assumeIsolated {
            guard requireGtk() else { return }
            let qr = PairingQRView()
            let window = TestWindow(child: qr.widget, width: 400, height: 400)
            defer { window.close() }
            qr.show(nil)
            XCTAssertTrue(qr.showsSpinner)
            XCTAssertFalse(qr.showsQR)
            qr.show(image)
            XCTAssertFalse(qr.showsSpinner)
            XCTAssertTrue(qr.showsQR)
            var width: Int32 = 0, height: Int32 = 0
            gtk_widget_get_size_request(qr.picture.pointer, &width, &height)
            XCTAssertEqual([Int(width), Int(height)], [image.size, image.size])
            XCTAssertNotEqual(gtk_widget_has_css_class(qr.widget, "qr-frame"), 0)
            qr.show(nil)
            XCTAssertTrue(qr.showsSpinner)
            XCTAssertFalse(qr.showsQR)
        }
    }
}
