import Foundation
import LANDiscovery
import NIOCore

/// What the app drives: pairing's state (open, close, rotate), the event
/// stream, answers to requests, the paired devices.
extension DiscoveryServer {
    /// A new subscription: it starts with the current state and devices, then
    /// every event. It ends when the server goes away or the consumer stops iterating.
    ///
    /// Callable from any thread.
    /// - Returns: the events, in the order they happened.
    public func events() -> AsyncStream<PairingEvent> {
        let stream = subscribers.subscribe()
        // The snapshot goes through the same fan-out, after registering, so nothing is missed
        // (a change racing with it may arrive twice, which a model applies idempotently).
        subscribers.send(.state(state))
        subscribers.send(.devicesChanged(deviceStore.list()))
        return stream
    }

    /// Answers a ``PairingEvent/request(_:)``; the request is withdrawn.
    /// Unknown or finished ids are ignored.
    /// - Parameters:
    ///   - id: the request's ``PairingRequest/id``.
    ///   - accept: true pairs the device (if pairing is still open), false refuses.
    public func answer(_ id: UUID, accept: Bool) { pending.answer(id, accept: accept) }

    /// The paired devices, oldest first.
    public var devices: [PairedDevice] { deviceStore.list() }

    /// Forgets a device; its token stops working at once and its open event
    /// streams (`/api/v1/player/events`) are closed.
    /// - Parameter deviceID: the ``PairedDevice/id``; an unknown one changes nothing.
    /// - Throws: ``PairingError`` when the change cannot be saved.
    public func revoke(deviceID: String) throws {
        let removed = try deviceStore.revoke(id: deviceID)
        remoteEvents.closeStreams(deviceID: deviceID, reason: "revoked")
        if removed != nil { publishDevices() }
    }

    /// Reports the paired devices (after a pairing, an unpairing or a revoke).
    func publishDevices() { subscribers.send(.devicesChanged(deviceStore.list())) }

    /// The current pairing state (rotating codes if they are due).
    public var state: PairingState {
        tick()
        return shared.withLockedValue { self.pairingState($0) }
    }

    /// Opens pairing (or shows a new code after expiry): a fresh session and
    /// code, the 5-minute window starts, mDNS announces the service.
    /// - Returns: the new state (``PairingState/open(uri:codeRotatesAt:closesAt:)``).
    /// - Throws: ``PairingError/serverStartFailed(_:)`` if the server is not running.
    @discardableResult
    public func openPairing() throws -> PairingState {
        let now = clock.now()
        let state = try shared.withLockedValue { shared -> PairingState in
            guard let port = shared.port, let listener = shared.listener else { throw PairingError.serverStartFailed("not started") }
            shared.codes.open(now: now)
            if configuration.advertise, shared.advertiser == nil {
                // Bound to loopback only (tests, LISTENUP_PAIRING_BIND=127.0.0.1): announce on `lo` only too.
                let loopbackOnly = shared.addresses.allSatisfy { $0.hasPrefix("127.") || $0 == "::1" }
                let advertiser = ServiceAdvertiser(name: PairingURI.displayName(configuration.desktopName), type: "_listenup-pair._tcp", port: port,
                                                   txt: ["v=1", "fp=\(identity.fingerprintBase64URL)"],
                                                   interfaceIndex: loopbackOnly ? Int32(bitPattern: if_nametoindex("lo")) : nil, logger: logger)
                advertiser.start()
                shared.advertiser = advertiser
            }
            if shared.ticker == nil {
                shared.ticker = listener.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(500), delay: .milliseconds(500)) { [weak self] _ in
                    self?.tick()
                }
            }
            return self.pairingState(shared)
        }
        publishCurrentState()
        return state
    }

    /// Closes pairing: codes stop working, pending requests are refused, the
    /// mDNS announcement is withdrawn.
    public func closePairing() {
        pending.refuseAll()
        let (advertiser, ticker) = shared.withLockedValue { shared -> (ServiceAdvertiser?, RepeatedTask?) in
            shared.codes.close()
            defer {
                shared.advertiser = nil
                shared.ticker = nil
            }
            return (shared.advertiser, shared.ticker)
        }
        ticker?.cancel()
        advertiser?.stop()
        publishCurrentState()
    }

    /// Rotates or expires codes that are due, and reports any change of state.
    /// Called twice a second while pairing is open; tests with a hand-moved clock call it directly.
    public func tick() {
        let now = clock.now()
        let advertiser = shared.withLockedValue { shared -> ServiceAdvertiser? in
            shared.codes.advance(now: now)
            var advertiser: ServiceAdvertiser?
            if case .expired = shared.codes.state {
                advertiser = shared.advertiser
                shared.advertiser = nil
            }
            return advertiser
        }
        advertiser?.stop()
        publishCurrentState() // rotation, expiry, a used or burned code
    }

    /// Reports the current state if it differs from the last one reported.
    /// Computed and reported under the lock, so reports are never reordered
    /// (an older code can never be reported after a newer one).
    func publishCurrentState() {
        shared.withLockedValue { shared in
            let state = pairingState(shared)
            guard state != shared.lastState else { return }
            shared.lastState = state
            subscribers.send(.state(state))
        }
    }

    func pairingState(_ shared: Shared) -> PairingState {
        switch shared.codes.state {
        case .closed: return .closed
        case .expired: return .expired
        case .open(let code, let endsAt):
            guard let port = shared.port else { return .closed }
            return .open(uri: PairingURI(name: PairingURI.displayName(configuration.desktopName), addresses: shared.addresses, port: port,
                                         fingerprint: identity.fingerprint, session: code.session,
                                         code: code.code, expiresAt: min(code.rotatesAt, endsAt)),
                         codeRotatesAt: min(code.rotatesAt, endsAt), closesAt: endsAt)
        }
    }
}
