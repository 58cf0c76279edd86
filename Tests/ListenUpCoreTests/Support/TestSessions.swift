import Foundation
@testable import ListenUpCore

extension KnownServer {
    /// A server on a loopback port nothing listens on.
    static let closedLoopback = KnownServer(url: URL(string: "http://127.0.0.1:9")!)
}

extension Session {
    /// A signed-in session whose connection never reaches a network
    /// (its transport is offline: every call fails as unreachable).
    static func offline(serverURL: URL = KnownServer.closedLoopback.url, userID: String = "user-1",
                        displayName: String = "Ada L") -> Session {
        let connection = Dependencies.test().connect(to: KnownServer(url: serverURL))
        return Session(serverURL: serverURL, userID: userID, displayName: displayName, connection: connection)
    }
}

extension VerifiedServer {
    /// A server as verification reports it, on ``KnownServer/closedLoopback``.
    static func sample(setupRequired: Bool) -> VerifiedServer {
        VerifiedServer(url: KnownServer.closedLoopback.url, instanceID: "lib-V1StGXR8_Z5jdHi6B-myT", name: "Shelf", setupRequired: setupRequired)
    }
}
