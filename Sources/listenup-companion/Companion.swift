import ArgumentParser
import Foundation
import Pairing

/// `listenup-companion`: the other side of "Pair a device", for a second
/// computer or for scripts. Output for the user goes to stdout; errors to stderr.
@main
struct Companion: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listenup-companion",
        abstract: "Pair with a ListenUp desktop and talk to it.",
        subcommands: [Pair.self, Status.self, Unpair.self, Remote.self]
    )
}

/// Writes `message` to stderr; returns the exit code to throw.
func failure(_ message: String) -> ExitCode {
    try? FileHandle.standardError.write(contentsOf: Data(("listenup-companion: " + message + "\n").utf8))
    return ExitCode.failure
}

/// Writes a line to stdout (the CLI's user output).
func say(_ line: String) {
    // The throwing variant: a closed pipe (`| head`) must not trap.
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

struct Pair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pair using the listenup-pair: link or a picture of the QR code.")

    @Argument(help: "The listenup-pair:v1?… link.")
    var uri: String?

    @Option(help: ArgumentHelp("Decode the QR code in this image with zbarimg instead.", valueName: "shot.png"))
    var image: String?

    @Option(help: "The name the desktop shows for this device.")
    var name = ProcessInfo.processInfo.hostName

    @Option(help: "The model the desktop shows for this device.")
    var model = "listenup-companion"

    func validate() throws {
        guard (uri == nil) != (image == nil) else { throw ValidationError("Give either a pairing link or --image, not both.") }
    }

    func run() async throws {
        let text = try uri ?? decodeQR(at: image ?? "")
        let parsed: PairingURI
        do { parsed = try PairingURI.parse(text) } catch { throw ValidationError("Not a usable pairing code: \(error)") }
        let client = CompanionClient()
        do {
            let pairing = try await client.pair(uri: parsed, clientName: name, clientModel: model) { code in
                say("Comparison code: \(code)")
                say("Check that \(parsed.name) shows the same code, then accept there.")
            }
            say("Paired with \(pairing.desktopName). Token stored in \(client.storage.url("pairing.json").path)")
        } catch {
            throw failure("pairing failed: \(error)")
        }
    }

    private func decodeQR(at path: String) throws -> String {
        let zbar = Process()
        zbar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zbar.arguments = ["zbarimg", "--raw", "-q", path]
        let output = Pipe()
        zbar.standardOutput = output
        do { try zbar.run() } catch { throw ValidationError("Cannot run zbarimg (install zbar-tools): \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        zbar.waitUntilExit()
        guard zbar.terminationStatus == 0 else { throw ValidationError("No QR code found in \(path).") }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard let first = lines.first else { throw ValidationError("No QR code found in \(path).") }
        return String(first)
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Ask the paired desktop what it is doing.")

    func run() async throws {
        do {
            let status = try await CompanionClient().status()
            say("Desktop: \(status.desktopName)")
            say("App version: \(status.appVersion)")
            say("Active route: \(status.activeRoute)")
            say("Server: \(status.serverURL ?? "none")")
            say("Signed in as: \(status.userDisplayName ?? "nobody")")
        } catch {
            throw failure("status failed: \(error)")
        }
    }
}

struct Unpair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Forget the pairing, on the desktop and here.")

    func run() async throws {
        do {
            try await CompanionClient().unpair()
            say("Unpaired.")
        } catch {
            throw failure("unpair failed: \(error)")
        }
    }
}
