import Foundation
import Logging
import NIOConcurrencyHelpers

/// Everything the desktop app needs for pairing, in one object: the identity,
/// the paired devices, the ``DiscoveryServer``, and one event stream carrying
/// state changes *and* pairing requests, which the app answers with
/// ``answer(_:accept:)``. A `@MainActor` model subscribes with ``events()`` and
/// calls the methods; nothing here touches the main thread or GTK.
///
/// Thread-safe. Any number of subscribers (a page and the headless front, or an
/// old page model not yet gone and its replacement) each get every event.
public final class PairingHost: Sendable {
    /// A pairing request waiting for the user's answer.
    public struct Request: Sendable, Equatable, Identifiable {
        /// Pass it back to ``PairingHost/answer(_:accept:)``.
        public let id: UUID
        /// `client_name` the companion sent.
        public let clientName: String
        /// `client_model` the companion sent.
        public let clientModel: String
        /// Show it next to "Pair with <clientName>?"; the companion shows the same digits.
        public let comparisonCode: String
        /// Where the request came from.
        public let remoteAddress: String

        /// A request (the host makes them; previews and tests make their own).
        public init(id: UUID = UUID(), clientName: String, clientModel: String, comparisonCode: String, remoteAddress: String) {
            self.id = id
            self.clientName = clientName
            self.clientModel = clientModel
            self.comparisonCode = comparisonCode
            self.remoteAddress = remoteAddress
        }
    }

    /// What the app is told.
    public enum Event: Sendable, Equatable {
        /// The QR/URI, the code countdown, expiry or closing changed.
        case state(DiscoveryServer.PairingState)
        /// Ask the user; answer with ``PairingHost/answer(_:accept:)``.
        case request(Request)
        /// A request is no longer pending (answered, timed out, pairing closed): hide its dialog.
        case requestWithdrawn(UUID)
        /// The paired devices changed (paired, unpaired, revoked).
        case devicesChanged([PairedDevice])
    }

    /// The server (for its port, addresses, fingerprint).
    public let server: DiscoveryServer
    private let subscribers: Subscribers
    private let pending: NIOLockedValueBox<Pending>

    private struct Pending {
        var waiting: [UUID: CheckedContinuation<Bool, Never>] = [:]
        var cancelled: Set<UUID> = []
    }

    /// Loads (or creates) the identity and the paired devices from `storage`, and
    /// builds the server (not started).
    /// - Parameters:
    ///   - storage: `$XDG_DATA_HOME/listenup` by default.
    ///   - configuration: names, addresses (nil addresses honour `LISTENUP_PAIRING_BIND`), limits.
    ///   - status: what `GET /api/v1/status` reports, asked on each call.
    /// - Throws: ``PairingError``.
    public init(storage: PairingStorage = PairingStorage(), configuration: DiscoveryServer.Configuration,
                clock: PairingClock = .system, logger: Logger = Logger(label: "listenup.pairing"),
                status: @escaping @Sendable () async -> DiscoveryServer.Status) throws {
        let subscribers = Subscribers()
        let pending = NIOLockedValueBox(Pending())
        self.subscribers = subscribers
        self.pending = pending
        let devices = try PairedDeviceStore(storage: storage, clock: clock)
        server = DiscoveryServer(
            identity: try PairingIdentity.loadOrCreate(in: storage), devices: devices, configuration: configuration,
            clock: clock, logger: logger,
            confirm: { request in await Self.ask(request, pending: pending, subscribers: subscribers) },
            status: status,
            onEvent: { event in
                switch event {
                case .stateChanged(let state): subscribers.send(.state(state))
                case .paired, .unpaired: subscribers.send(.devicesChanged(devices.list()))
                }
            })
    }

    deinit { subscribers.finish() }

    /// A new subscription: it starts with the current state and devices, then
    /// every event. It ends when the host goes away or the consumer stops iterating.
    public func events() -> AsyncStream<Event> {
        let stream = subscribers.subscribe()
        // The snapshot is sent through the same fan-out, after registering, so nothing is missed
        // (a change racing with it may arrive twice, which a model applies idempotently).
        let state = server.state
        subscribers.send(.state(state))
        subscribers.send(.devicesChanged(server.devices.list()))
        return stream
    }

    /// Starts the server (see ``DiscoveryServer/start()``).
    @discardableResult
    public func start() async throws -> Int { try await server.start() }

    /// Stops the server; pending requests are refused.
    public func stop() async {
        refuseAll()
        await server.stop()
    }

    /// Opens pairing or shows a new code (``DiscoveryServer/openPairing()``).
    /// - Returns: the new state.
    @discardableResult
    public func openPairing() throws -> DiscoveryServer.PairingState { try server.openPairing() }

    /// Closes pairing; pending requests are refused.
    public func closePairing() {
        refuseAll()
        server.closePairing()
    }

    /// Answers a ``Event/request(_:)``. Unknown or finished ids are ignored.
    public func answer(_ id: UUID, accept: Bool) {
        let waiting = pending.withLockedValue { $0.waiting.removeValue(forKey: id) }
        guard let waiting else { return }
        waiting.resume(returning: accept)
        subscribers.send(.requestWithdrawn(id))
    }

    /// The paired devices, oldest first.
    public var devices: [PairedDevice] { server.devices.list() }

    /// Forgets a device; its token stops working at once.
    public func revoke(deviceID: String) throws {
        if try server.devices.revoke(id: deviceID) != nil {
            subscribers.send(.devicesChanged(server.devices.list()))
        }
    }

    private func refuseAll() {
        let waiting = pending.withLockedValue { pending -> [UUID: CheckedContinuation<Bool, Never>] in
            defer { pending.waiting.removeAll() }
            return pending.waiting
        }
        for (id, continuation) in waiting {
            continuation.resume(returning: false)
            subscribers.send(.requestWithdrawn(id))
        }
    }

    /// Publishes a request and waits for ``answer(_:accept:)``; a cancelled wait
    /// (the server's timeout) refuses and withdraws the request.
    private static func ask(_ request: DiscoveryServer.PairingRequest, pending: NIOLockedValueBox<Pending>,
                            subscribers events: Subscribers) async -> Bool {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
                let alreadyCancelled = pending.withLockedValue { pending -> Bool in
                    if pending.cancelled.remove(id) != nil { return true }
                    pending.waiting[id] = waiter
                    return false
                }
                if alreadyCancelled {
                    waiter.resume(returning: false)
                } else {
                    events.send(.request(Request(id: id, clientName: request.clientName, clientModel: request.clientModel,
                                                  comparisonCode: request.comparisonCode, remoteAddress: request.remoteAddress)))
                }
            }
        } onCancel: {
            let waiter = pending.withLockedValue { pending -> CheckedContinuation<Bool, Never>? in
                if let waiter = pending.waiting.removeValue(forKey: id) { return waiter }
                pending.cancelled.insert(id)
                return nil
            }
            if let waiter {
                waiter.resume(returning: false)
                events.send(.requestWithdrawn(id))
            }
        }
    }
}

/// The host's subscribers: each event goes to every live subscription.
final class Subscribers: Sendable {
    private let continuations = NIOLockedValueBox<[UUID: AsyncStream<PairingHost.Event>.Continuation]>([:])

    func subscribe() -> AsyncStream<PairingHost.Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: PairingHost.Event.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLockedValue { $0.removeValue(forKey: id) }
        }
        continuations.withLockedValue { $0[id] = continuation }
        return stream
    }

    func send(_ event: PairingHost.Event) {
        for continuation in continuations.withLockedValue({ Array($0.values) }) { continuation.yield(event) }
    }

    func finish() {
        for continuation in continuations.withLockedValue({ Array($0.values) }) { continuation.finish() }
    }
}
