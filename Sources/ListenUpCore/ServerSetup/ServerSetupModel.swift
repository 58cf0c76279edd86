import Foundation
import Logging
import Observation

/// The server setup screen: the typed address, its local check, the check
/// against the server (`GET /api/v1/instance`), and servers found on the LAN.
///
/// A verified server moves the auth state on by itself (Create admin or Sign
/// in), carrying the server; it is also saved in settings for the next launch. A check is cancelled when the user
/// edits the address or leaves the screen.
@MainActor @Observable
public final class ServerSetupModel: ScreenModel {
    /// Where the screen stands.
    public enum Status: Equatable, Sendable {
        /// The user is typing; nothing to report.
        case editing
        /// The typed address was refused locally.
        case invalid(ServerAddressError)
        /// The server at this address is being checked.
        case checking(ServerAddress)
        /// The check failed.
        case failed(ServerAddress, ServerVerificationError)
        /// The server is a ListenUp v1 server; the app moves on.
        case verified(VerifiedServer)
    }

    /// How LAN discovery is doing.
    public enum DiscoveryStatus: Equatable, Sendable {
        case searching
        case unavailable(reason: String)
    }

    /// What the user sends.
    public enum Intent: Equatable, Sendable {
        /// The URL field changed.
        case urlChanged(String)
        /// Connect was pressed (or Enter in the field).
        case connect
        /// A server in the LAN list was picked.
        case pick(LANServer)
        /// *Use an Invite…*.
        case useInvite
        /// Back to the saved server this setup was started from (*Add Server…*).
        case cancel
    }

    /// What the model needs from the app.
    public struct Environment: Sendable {
        public var verifier: ServerVerifier
        public var discovery: ServerDiscoveryClient
        public var settings: SettingsClient
        public var logger: Logger
        /// Moves the auth state.
        public var send: @MainActor @Sendable (AuthEvent) -> Void
        /// Goes back to the saved server that was active, when setup was
        /// reached with *Add Server…* (nil: nowhere to go back to).
        public var returnToSavedServer: (@MainActor @Sendable () -> Void)?

        public init(verifier: ServerVerifier, discovery: ServerDiscoveryClient, settings: SettingsClient,
                    logger: Logger = Logger(label: "listenup", factory: { _ in SwiftLogNoOpLogHandler() }),
                    send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
            self.verifier = verifier
            self.discovery = discovery
            self.settings = settings
            self.logger = logger
            self.send = send
        }
    }

    /// The URL field's text, as typed.
    public private(set) var urlText: String
    /// The outcome of the last Connect.
    public private(set) var status: Status = .editing
    /// Servers found on the LAN, in the order found.
    public private(set) var discovered: [LANServer] = []
    /// How discovery is doing.
    public private(set) var discoveryStatus: DiscoveryStatus = .searching

    @ObservationIgnored private let environment: Environment
    @ObservationIgnored private var check: Task<Void, Never>?
    @ObservationIgnored private var browsing: Task<Void, Never>?
    /// The TXT id a picked LAN server must answer with.
    @ObservationIgnored private var expectedInstanceID: String?

    /// Makes the model. With `checking`, the check starts at once (a saved
    /// server at launch, or one chosen a moment ago).
    public init(environment: Environment, checking address: ServerAddress? = nil, browse: Bool = true) {
        self.environment = environment
        urlText = address?.url.absoluteString ?? ""
        if browse { startBrowsing() }
        if let address { startCheck(address) }
    }

    /// Whether setup can be cancelled: it was reached with *Add Server…*,
    /// and Cancel goes back to the server that was active.
    public var canCancel: Bool { environment.returnToSavedServer != nil || cancelsForPreview }
    /// Previews only: shows Cancel as after *Add Server…*.
    var cancelsForPreview = false

    /// Whether Connect can be pressed: something is typed, no check is
    /// running, and it is not the address just refused locally.
    public var canConnect: Bool {
        switch status {
        case .invalid, .checking, .verified: return false
        // Unicode's White_Space, the characters `ServerAddress.parse` trims
        // (Foundation's whitespacesAndNewlines), without Foundation's string
        // search: this runs for the first frame.
        case .editing, .failed: return urlText.unicodeScalars.contains { !$0.properties.isWhitespace }
        }
    }

    /// Whether a check is running.
    public var isChecking: Bool {
        if case .checking = status { return true }
        return false
    }

    /// The error to show under the field, if any.
    public var fieldError: String? {
        switch status {
        case .invalid(let error): error.userMessage
        case .failed(let address, let error): error.userMessage(for: address.url)
        default: nil
        }
    }

    /// A status line below the button, if any.
    public var notice: String? {
        switch status {
        case .checking(let address): tr("Checking %@…", address.url.absoluteString)
        case .verified(let server): tr("Connected to %@.", server.name)
        default: nil
        }
    }

    /// Handles what the user did.
    public func send(_ intent: Intent) {
        switch intent {
        case .urlChanged(let text):
            guard text != urlText else { return }
            urlText = text
            if isChecking { cancelCheck() }
            status = .editing
            expectedInstanceID = nil
        case .connect:
            guard canConnect else { return }
            switch ServerAddress.parse(urlText) {
            case .failure(let error):
                status = .invalid(error)
            case .success(let address):
                expectedInstanceID = nil
                choose(address)
            }
        case .pick(let server):
            cancelCheck()
            urlText = server.url.absoluteString
            guard case .success(let address) = ServerAddress.parse(urlText) else { return }
            expectedInstanceID = server.id.hasPrefix("lib-") ? server.id : nil
            choose(address)
        case .useInvite:
            cancelCheck()
            environment.send(.inviteOpened(link: nil))
        case .cancel:
            guard let back = environment.returnToSavedServer else { return }
            cancelCheck()
            back()
        }
    }

    public func deactivate() {
        check?.cancel()
        check = nil
        browsing?.cancel()
        browsing = nil
    }

    // MARK: Checking

    private func choose(_ address: ServerAddress) {
        environment.send(.serverChosen(address))
        startCheck(address)
    }

    private func startCheck(_ address: ServerAddress) {
        check?.cancel()
        status = .checking(address)
        let verifier = environment.verifier
        check = Task { [weak self] in
            let result = await verifier.verify(address)
            guard !Task.isCancelled else { return }
            self?.finish(address, result)
        }
    }

    private func cancelCheck() {
        guard let check else { return }
        check.cancel()
        self.check = nil
        if isChecking { environment.send(.serverCheckFailed) }
    }

    private func finish(_ address: ServerAddress, _ result: Result<VerifiedServer, ServerVerificationError>) {
        check = nil
        switch result {
        case .success(let server):
            if let expected = expectedInstanceID, expected != server.instanceID {
                status = .failed(address, .notListenUp("instance id does not match the LAN advertisement"))
                environment.send(.serverCheckFailed)
                return
            }
            remember(server)
            status = .verified(server)
            environment.send(.serverVerified(server))
        case .failure(let error):
            status = .failed(address, error)
            environment.send(.serverCheckFailed)
        }
    }

    /// Saves the server for the next launch. Nothing reads it back in this
    /// run: the server travels on in the auth state.
    private func remember(_ server: VerifiedServer) {
        environment.settings.remember(server, logger: environment.logger)
    }

    // MARK: Discovery

    private func startBrowsing() {
        let stream = environment.discovery.browse()
        browsing = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                self.apply(event)
            }
        }
    }

    private func apply(_ event: ServerDiscoveryEvent) {
        switch event {
        case .found(let server):
            discoveryStatus = .searching
            if let index = discovered.firstIndex(where: { $0.id == server.id }) {
                discovered[index] = server
            } else {
                discovered.append(server)
            }
        case .lost(let id):
            discovered.removeAll { $0.id == id }
        case .unavailable(let reason):
            discovered = []
            discoveryStatus = .unavailable(reason: reason)
        }
    }

    // MARK: Previews

    /// Puts the screen in `status` without any work (previews only).
    func showForPreview(_ status: Status, url: String) {
        urlText = url
        self.status = status
    }

    /// Shows `servers` and `discovery` (previews only).
    func showForPreview(discovered servers: [LANServer], discovery: DiscoveryStatus) {
        discovered = servers
        discoveryStatus = discovery
    }
}
