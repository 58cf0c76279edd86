import Foundation
import ListenUpTestSupport
import Testing

/// `listenup --gapplication-service`: how the session bus starts the window's
/// app for GNOME Shell's search (build-aux/test-search-provider runs it over
/// a bus); it has nothing to serve with the other fronts.
@Suite("The D-Bus service flag")
struct ServiceFlagTests {
    func run(_ arguments: [String]) async throws -> (status: Int32?, errors: String) {
        let output = try await ChildProcess.run([HeadlessProcess.binary.path] + arguments)
        return (output.status, output.stderr)
    }

    @Test(arguments: [["--headless"], ["--preview", "library"], ["--screenshot", "/tmp/listenup-service-flag.png"]])
    func theServiceIsTheWindowsAppOnly(other: [String]) async throws {
        let result = try await run(["--gapplication-service"] + other)
        #expect(result.status != nil && result.status != 0)
        #expect(result.errors.contains("--gapplication-service"), "\(result.errors)")
    }

    @Test func theHelpNamesIt() async throws {
        let output = try await ChildProcess.run([HeadlessProcess.binary.path, "--help"])
        #expect(output.stdout.contains("--gapplication-service"))
    }
}
