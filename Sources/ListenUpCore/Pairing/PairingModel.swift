import Foundation
import Observation
import PairingProtocol

/// The "Pair a device" screen: the QR code and its countdown, the pairing
/// request dialog, and the list of paired devices with Revoke.
///
/// `@MainActor`; the page renders ``phase``, ``qrImage``, ``request`` and
/// ``devices`` and sends ``Intent``s. The QR image is drawn off the main
/// thread by a ``QRRenderer``; an image is shown only if it is the one for the
/// current code. Call ``send(_:)`` with `.close` when the page goes away.
@MainActor @Observable
public final class PairingModel {
    /// Where pairing stands.
    public enum Phase: Equatable, Sendable {
        /// Not open (page not shown yet, or closed).
        case closed
        /// Starting the server.
        case starting
        /// Showing `uri`; the code changes at `codeRotatesAt`; pairing ends at `closesAt`.
        case open(uri: String, codeRotatesAt: Date, closesAt: Date)
        /// Five minutes are over: offer "Show a new code".
        case expired
        /// The server could not start (`message` is for the log and a short notice).
        case failed(message: String)
    }

    /// What the page sends.
    public enum Intent: Equatable, Sendable {
        /// The page appeared.
        case open
        /// "Show a new code" after expiry.
        case showNewCode
        /// The page went away.
        case close
        /// The user answered the current request.
        case answer(accept: Bool)
        /// Revoke was pressed for a device.
        case revoke(deviceID: String)
    }

    /// Where pairing stands.
    public private(set) var phase: Phase = .closed
    /// The QR image of the current URI (nil until drawn, or when closed).
    public private(set) var qrImage: QRImage?
    /// The request waiting for the user ("Pair with <name>?" and its comparison code).
    public private(set) var request: PairingRequest?
    /// Paired devices, oldest first.
    public private(set) var devices: [PairedDevice] = []
    /// The last revoke failure, if any.
    public private(set) var revokeFailed = false

    @ObservationIgnored private let client: PairingClient
    @ObservationIgnored private let codeGrace: TimeInterval
    @ObservationIgnored private let dismissAction: @MainActor () -> Void
    @ObservationIgnored private let renderer: QRRenderer
    @ObservationIgnored let encoder: QRRenderer.Encoder
    @ObservationIgnored let moduleSize: Int
    @ObservationIgnored private var listening: Task<Void, Never>?
    @ObservationIgnored private var drawing: Task<Void, Never>?
    @ObservationIgnored private var starting: Task<Void, Never>?
    /// Render requests, in order, to one task (unstructured tasks could reorder them).
    @ObservationIgnored private let renders: AsyncStream<String?>.Continuation
    @ObservationIgnored private var rendering: Task<Void, Never>?

    /// - Parameters:
    ///   - client: the pairing machinery (the app's is `PairingClient.host(…)`, in `ListenUpLive`).
    ///   - moduleSize: QR pixels per module.
    ///   - encoder: makes the QR symbol (``Dependencies/qrEncoder``).
    ///   - codeGrace: how long a code stays valid after its replacement (the server's rule).
    ///   - dismiss: closes the screen (the navigator's overlay); ``dismiss()`` calls it.
    public init(client: PairingClient, moduleSize: Int = 8, encoder: QRRenderer.Encoder, codeGrace: TimeInterval = PairingCodes.Timing().grace,
                dismiss: @escaping @MainActor () -> Void = {}) {
        self.client = client
        self.codeGrace = codeGrace
        self.dismissAction = dismiss
        self.encoder = encoder
        self.moduleSize = moduleSize
        let renderer = QRRenderer(moduleSize: moduleSize, encoder: encoder)
        self.renderer = renderer
        let (requests, renders) = AsyncStream.makeStream(of: String?.self)
        self.renders = renders
        devices = client.devices()
        rendering = Task {
            for await payload in requests {
                if let payload { await renderer.render(payload) } else { await renderer.cancel() }
            }
        }
        let events = client.events()
        listening = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                self.apply(event)
            }
        }
        let results = renderer.results
        drawing = Task { [weak self] in
            for await rendered in results {
                guard let self else { return }
                if case .open(let uri, _, _) = self.phase, uri == rendered.payload { self.qrImage = rendered.image }
            }
        }
    }

    isolated deinit {
        listening?.cancel()
        drawing?.cancel()
        starting?.cancel()
        renders.finish()
    }

    /// Handles a user action.
    public func send(_ intent: Intent) {
        switch intent {
        case .open, .showNewCode:
            phase = .starting
            starting?.cancel()
            let client = client
            starting = Task { [weak self] in
                do {
                    try await client.start()
                    try Task.checkCancellation()
                    try client.open()
                } catch is CancellationError {
                    return
                } catch {
                    self?.phase = .failed(message: String(describing: error))
                }
            }
        case .close:
            starting?.cancel()
            client.close()
            phase = .closed
            qrImage = nil
            if let request { client.answer(request.id, false) }
            request = nil
            renders.yield(nil)
        case .answer(let accept):
            guard let request else { return }
            self.request = nil
            client.answer(request.id, accept)
        case .revoke(let id):
            do {
                try client.revoke(id)
                revokeFailed = false
            } catch {
                revokeFailed = true
            }
            devices = client.devices()
        }
    }

    /// When the code on screen stops being accepted: its replacement time plus
    /// the grace, but never after pairing closes. Nil unless open.
    public var codeValidUntil: Date? {
        guard case .open(_, let rotatesAt, let closesAt) = phase else { return nil }
        return min(rotatesAt.addingTimeInterval(codeGrace), closesAt)
    }

    /// Leaves the screen (Close, or headless `closePairing`); the navigator then
    /// deactivates the model, which closes pairing.
    public func dismiss() { dismissAction() }

    /// Puts the model in a state without a server (`--preview pairing:STATE`).
    func showPreview(phase: Phase, qrImage: QRImage? = nil, request: PairingRequest? = nil, devices: [PairedDevice] = []) {
        starting?.cancel()
        self.phase = phase
        self.qrImage = qrImage
        self.request = request
        self.devices = devices
    }

    private func apply(_ event: PairingEvent) {
        switch event {
        case .state(let state):
            switch state {
            case .closed:
                if case .starting = phase { return } // a close from before this open
                phase = .closed
                qrImage = nil
            case .expired:
                phase = .expired
                qrImage = nil
            case .open(let uri, let rotatesAt, let closesAt):
                let text = uri.description
                if case .open(let shown, _, _) = phase, shown == text {} else { qrImage = nil }
                phase = .open(uri: text, codeRotatesAt: rotatesAt, closesAt: closesAt)
                renders.yield(text)
            }
        case .request(let request):
            if let previous = self.request { client.answer(previous.id, false) } // one dialog at a time
            self.request = request
        case .requestWithdrawn(let id):
            if request?.id == id { request = nil }
        case .devicesChanged(let devices):
            self.devices = devices
        }
    }
}
