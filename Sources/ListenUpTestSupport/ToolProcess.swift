import Foundation

/// A command-line tool a test runs (`zbarimg`, `curl`, …), found on the PATH,
/// its stdout kept and its stderr dropped; killed if it runs over a minute
/// (``RunningChild`` says why every wait must end).
public final class ToolProcess: Sendable {
    private let child: RunningChild

    public var process: Process { child.process }

    /// Starts `arguments[0]` with the rest as its arguments.
    public init(_ arguments: [String]) throws {
        child = try RunningChild(arguments)
    }

    /// Waits for the tool; its exit status (-1 when it was killed at its
    /// deadline) and stdout.
    public func finish(timeout: Duration = .seconds(60)) -> (status: Int32, output: String) {
        let output = child.finish(timeout: timeout)
        return (output.status ?? -1, output.stdout)
    }

    /// Runs a tool to the end; its exit status and stdout.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ToolProcess(arguments).finish()
    }
}

/// What a companion needs from a `listenup-pair:v1?…` link to talk to the
/// pairing server with curl: the link's fields, the server's base URL and
/// curl's `--pinnedpubkey` for its fingerprint.
public struct PairingLinkTarget: Sendable {
    /// The link's query fields (the first of each name).
    public let fields: [String: String]

    public init(uri: String) {
        var fields: [String: String] = [:]
        let query = uri.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, fields[parts[0]] == nil { fields[parts[0]] = parts[1] }
        }
        self.fields = fields
    }

    /// `https://<addr>:<port>`.
    public var base: String { "https://\(fields["addr"] ?? ""):\(fields["port"] ?? "")" }

    /// `sha256//<base64>` from the link's base64url `fp`.
    public var pin: String {
        var b64 = (fields["fp"] ?? "").replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.count % 4 != 0 { b64 += "=" }
        return "sha256//" + b64
    }
}
