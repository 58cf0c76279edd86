import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The paired devices, persisted as `paired-devices.json` (0600) next to the
/// identity. Thread-safe (a lock around the list; each change is written
/// through). Tokens are 256-bit random values, kept only as SHA-256 hashes.
public final class PairedDeviceStore: Sendable {
    static let file = "paired-devices.json"
    private let storage: PairingStorage
    private let clock: PairingClock
    private let devices: NIOLockedValueBox<[PairedDevice]>

    /// Loads the list (empty if there is no file yet).
    /// - Throws: ``PairingError/storage(_:)`` if the file exists but cannot be read.
    public init(storage: PairingStorage, clock: PairingClock = .system) throws {
        self.storage = storage
        self.clock = clock
        var loaded: [PairedDevice] = []
        if let data = try storage.read(Self.file) {
            do { loaded = try Self.decoder.decode([PairedDevice].self, from: data) } catch {
                throw PairingError.storage("paired-devices.json is unreadable")
            }
        }
        devices = NIOLockedValueBox(loaded)
    }

    /// Every paired device, oldest first (expired ones included until revoked).
    public func list() -> [PairedDevice] { devices.withLockedValue { $0 } }

    /// Records a new device.
    /// - Returns: the device and its bearer token (give it to the device once; it is not kept).
    public func add(name: String, model: String, lifetime: TimeInterval) throws -> (device: PairedDevice, token: String) {
        let now = clock.now()
        let token = Base64URL.encode(PairingCodes.systemRandom(32))
        let device = PairedDevice(id: Base64URL.encode(PairingCodes.systemRandom(12)), name: name, model: model,
                                  pairedAt: now, lastSeen: now, expiresAt: now.addingTimeInterval(lifetime),
                                  tokenHash: Self.hash(token))
        try change { $0.append(device) }
        return (device, token)
    }

    /// The device a bearer token belongs to, if it is known and not expired;
    /// updates its `lastSeen`.
    public func authenticate(token: String) -> PairedDevice? {
        let presented = Array(Self.hash(token).utf8)
        let now = clock.now()
        var found: PairedDevice?
        try? change { devices in
            for index in devices.indices where ConstantTime.equals(Array(devices[index].tokenHash.utf8), presented) {
                guard devices[index].expiresAt > now else { continue }
                devices[index].lastSeen = now
                found = devices[index]
            }
        }
        return found
    }

    /// Forgets a device: its token stops working at once.
    /// - Returns: the removed device, or nil if there was none with that id.
    @discardableResult
    public func revoke(id: String) throws -> PairedDevice? {
        var removed: PairedDevice?
        try change { devices in
            if let index = devices.firstIndex(where: { $0.id == id }) { removed = devices.remove(at: index) }
        }
        return removed
    }

    private func change(_ body: (inout [PairedDevice]) -> Void) throws {
        try devices.withLockedValue { devices in
            let before = devices
            body(&devices)
            guard devices != before else { return }
            do { try storage.write(try Self.encoder.encode(devices), to: Self.file) } catch {
                devices = before
                throw error
            }
        }
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
