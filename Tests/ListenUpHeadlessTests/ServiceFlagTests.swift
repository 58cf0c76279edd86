import Foundation
import ListenUpTestSupport
import Testing

/// `listenup --gapplication-service`: how the session bus starts the window's
/// app for GNOME Shell's search (build-aux/test-search-provider runs it over
/// a bus); it has nothing to serve with the other fronts.
@Suite("The D-Bus service flag")
struct ServiceFlagTests {
    func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        ChildProcess.configure(process, [HeadlessProcess.binary.path] + arguments)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [["--headless"], ["--preview", "library"], ["--screenshot", "/tmp/listenup-service-flag.png"]])
    func theServiceIsTheWindowsAppOnly(other: [String]) throws {
        let result = try run(["--gapplication-service"] + other)
        #expect(result.status != 0)
        #expect(result.errors.contains("--gapplication-service"), "\(result.errors)")
    }

    @Test func theHelpNamesIt() throws {
        let process = Process()
        ChildProcess.configure(process, [HeadlessProcess.binary.path, "--help"])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self).contains("--gapplication-service"))
    }
}
