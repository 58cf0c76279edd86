import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The paired devices, persisted as `paired-devices.json` (0600) next to the
/// identity. Thread-safe (a lock around the list; each change is written
/// through). Tokens are 256-bit random values, kept only as SHA-256 hashes.
///
/// Each device's last use (``PairedDevice/lastSeen``: its last authenticated
/// request, or an event stream it keeps open) is recorded to the
/// `lastUseGranularity`, so a remote sending commands or following the player
/// does not rewrite the file on every request.
public final class PairedDeviceStore: Sendable {
    static let file = "paired-devices.json"
    private let storage: PairingStorage
    private let clock: PairingClock
    private let lastUseGranularity: TimeInterval
    private let devices: NIOLockedValueBox<[PairedDevice]>

    /// Loads the list (empty if there is no file yet).
    /// - Parameters:
    ///   - storage: where `paired-devices.json` is.
    ///   - clock: time for pairing, expiry and last use.
    ///   - lastUseGranularity: a use is recorded (and written) only when the recorded
    ///     one is at least this many seconds old.
    /// - Throws: ``PairingError/storage(_:)`` if the file exists but cannot be read.
    public init(storage: PairingStorage, clock: PairingClock = .system, lastUseGranularity: TimeInterval = 60) throws {
        self.storage = storage
        self.clock = clock
        self.lastUseGranularity = lastUseGranularity
        var loaded: [PairedDevice] = []
        if let data = try storage.read(Self.file) {
            do { loaded = try Self.decoder.decode([PairedDevice].self, from: data) } catch {
                throw PairingError.storage("paired-devices.json is unreadable")
            }
        }
        devices = NIOLockedValueBox(loaded)
    }

    /// Whether `storage` holds a paired device whose token has not expired:
    /// a look at the file, which creates nothing.
    public static func hasLiveDevices(in storage: PairingStorage, now: Date = Date()) -> Bool {
        guard let data = try? storage.read(file), let devices = try? decoder.decode([PairedDevice].self, from: data) else { return false }
        return devices.contains { $0.expiresAt > now }
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
    /// records its use (``PairedDevice/lastSeen``, to the granularity).
    public func authenticate(token: String) -> PairedDevice? {
        authenticateRecordingUse(token: token)?.device
    }

    /// ``authenticate(token:)``, also telling whether the recorded last use moved
    /// (the server then reports the device list again).
    func authenticateRecordingUse(token: String) -> (device: PairedDevice, recorded: Bool)? {
        let presented = Array(Self.hash(token).utf8)
        let now = clock.now()
        var found: (PairedDevice, Bool)?
        recordUse(now: now) { devices in
            var indices: [Int] = []
            for index in devices.indices where ConstantTime.equals(Array(devices[index].tokenHash.utf8), presented) {
                guard devices[index].expiresAt > now else { continue }
                indices.append(index)
            }
            return indices
        } found: { device, recorded in
            found = (device, recorded)
        }
        return found
    }

    /// Whether `id` is paired and its token has not expired.
    func isActive(id: String) -> Bool {
        let now = clock.now()
        return devices.withLockedValue { $0.contains { $0.id == id && $0.expiresAt > now } }
    }

    /// Records a use of `id` (an event stream still open).
    /// - Returns: true if it is still paired and not expired.
    func recordUse(id: String) -> (active: Bool, recorded: Bool) {
        let now = clock.now()
        var result = (active: false, recorded: false)
        recordUse(now: now) { devices in
            devices.indices.filter { devices[$0].id == id && devices[$0].expiresAt > now }
        } found: { _, recorded in
            result = (true, recorded)
        }
        return result
    }

    /// Moves `lastSeen` of the devices `select` picks to `now` where the recorded one is
    /// older than the granularity, writing the file if anything moved (a failed write keeps
    /// the change in memory: the use is still shown, and written with the next change).
    private func recordUse(now: Date, select: ([PairedDevice]) -> [Int], found: (PairedDevice, Bool) -> Void) {
        devices.withLockedValue { devices in
            var recorded = false
            let indices = select(devices)
            for index in indices where now.timeIntervalSince(devices[index].lastSeen) >= lastUseGranularity {
                devices[index].lastSeen = now
                recorded = true
            }
            if recorded { try? storage.write(try Self.encoder.encode(devices), to: Self.file) }
            for index in indices { found(devices[index], recorded) }
        }
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
