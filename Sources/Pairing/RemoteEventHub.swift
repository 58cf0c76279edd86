import Foundation
import NIOConcurrencyHelpers

/// The player's state, fanned out to every open `GET /api/v1/player/events`
/// stream: one subscription to ``RemotePlayer/stateChanges()`` while the
/// server runs, each state encoded once as an SSE frame and offered to each
/// stream (which coalesces on its own event loop, see ``EventStreamConnection``).
///
/// A stream is first *reserved* (when its request is answered: the
/// per-device cap is checked and counted there, atomically), then *attached*
/// once its connection has written the response head, and *released* when
/// the connection goes away. A revoke closes the streams of that device,
/// reserved or attached.
///
/// Thread-safe: the table sits behind a lock; connections are called outside it.
final class RemoteEventHub: Sendable {
    /// A stream slot handed from the request's answer to its connection.
    struct Reservation: Sendable {
        let id: UUID
        let deviceID: String
        /// The first frame to send: the latest state the hub has, or nil if it has none yet.
        let latestFrame: [UInt8]?
    }

    private struct Slot {
        var deviceID: String
        var connection: EventStreamConnection?
        /// A frame published before the connection attached.
        var pending: [UInt8]?
    }

    private struct Table {
        var latestFrame: [UInt8]?
        var slots: [UUID: Slot] = [:]
        /// Slots closed (revoked) before their connection attached.
        var closed: Set<UUID> = []
        var subscription: Task<Void, Never>?
        var player: (any RemotePlayer)?
        /// Whether the player was last told it is followed.
        var followed = false
    }

    private let table = NIOLockedValueBox(Table())
    private let streamsPerDevice: Int

    /// - Parameter streamsPerDevice: how many streams one device may hold open.
    init(streamsPerDevice: Int) { self.streamsPerDevice = streamsPerDevice }

    /// Follows `player` until ``stop()``: each state becomes the latest frame and goes to every stream.
    func start(following player: any RemotePlayer) {
        let changes = player.stateChanges()
        let task = Task { [weak self] in
            for await state in changes {
                guard let self, !Task.isCancelled else { return }
                self.publish(state)
            }
        }
        let previous = table.withLockedValue { table -> Task<Void, Never>? in
            defer {
                table.subscription = task
                table.player = player
            }
            return table.subscription
        }
        previous?.cancel()
        tellFollowers()
    }

    /// Tells the player whether any stream is open, when that changed.
    private func tellFollowers() {
        let change = table.withLockedValue { table -> (any RemotePlayer, Bool)? in
            let followed = !table.slots.isEmpty
            guard let player = table.player, followed != table.followed else { return nil }
            table.followed = followed
            return (player, followed)
        }
        if let (player, followed) = change { player.setFollowed(followed) }
    }

    /// Stops following the player and forgets its last state (streams are closed with their connections).
    func stop() {
        let (task, player) = table.withLockedValue { table -> (Task<Void, Never>?, (any RemotePlayer)?) in
            defer {
                table.subscription = nil
                table.latestFrame = nil
                table.player = nil
                table.followed = false
            }
            return (table.subscription, table.followed ? table.player : nil)
        }
        task?.cancel()
        player?.setFollowed(false)
    }

    /// Sends `state` to every stream (and keeps it for streams that open later).
    func publish(_ state: RemotePlayerState) {
        let frame = EventStreamConnection.frame(event: "state", state)
        let connections = table.withLockedValue { table -> [EventStreamConnection] in
            table.latestFrame = frame
            var connections: [EventStreamConnection] = []
            for (id, slot) in table.slots {
                if let connection = slot.connection { connections.append(connection) } else { table.slots[id]?.pending = frame }
            }
            return connections
        }
        for connection in connections { connection.offer(frame) }
    }

    /// Counts a new stream for `deviceID`.
    /// - Returns: the reservation, or nil if the device already holds the maximum.
    func reserve(deviceID: String) -> Reservation? {
        let reservation = table.withLockedValue { table -> Reservation? in
            guard table.slots.values.count(where: { $0.deviceID == deviceID }) < streamsPerDevice else { return nil }
            let id = UUID()
            table.slots[id] = Slot(deviceID: deviceID)
            return Reservation(id: id, deviceID: deviceID, latestFrame: table.latestFrame)
        }
        tellFollowers()
        return reservation
    }

    /// The first frame for a reservation made when the hub had no state yet:
    /// a state published since wins over `fetched` (it is at least as new).
    func firstFrame(for reservation: Reservation, fetched: [UInt8]) -> [UInt8] {
        table.withLockedValue { table in
            guard let pending = table.slots[reservation.id]?.pending else { return fetched }
            table.slots[reservation.id]?.pending = nil
            return pending
        }
    }

    /// Binds a reserved slot to its connection, which gets any state published meanwhile.
    /// - Returns: false if the slot was closed (revoked) or released meanwhile: close the connection.
    func attach(_ reservation: Reservation, to connection: EventStreamConnection) -> Bool {
        let pending = table.withLockedValue { table -> [UInt8]?? in
            guard table.closed.remove(reservation.id) == nil, table.slots[reservation.id] != nil else { return .none }
            table.slots[reservation.id]?.connection = connection
            defer { table.slots[reservation.id]?.pending = nil }
            return .some(table.slots[reservation.id]?.pending)
        }
        guard case .some(let frame) = pending else { return false }
        if let frame { connection.offer(frame) }
        return true
    }

    /// Frees a slot (its connection went away, or it never got one).
    func release(_ reservation: Reservation) {
        table.withLockedValue { table in
            table.slots.removeValue(forKey: reservation.id)
            table.closed.remove(reservation.id)
        }
        tellFollowers()
    }

    /// Ends every stream of `deviceID` (revoked, unpaired): attached ones are told
    /// why and closed, reserved ones are closed as they attach.
    func closeStreams(deviceID: String, reason: String) {
        let connections = table.withLockedValue { table -> [EventStreamConnection] in
            var connections: [EventStreamConnection] = []
            for (id, slot) in table.slots where slot.deviceID == deviceID {
                if let connection = slot.connection { connections.append(connection) } else { table.closed.insert(id) }
                table.slots.removeValue(forKey: id)
            }
            return connections
        }
        for connection in connections { connection.end(reason: reason) }
        tellFollowers()
    }

    /// The number of streams open or reserved (for tests and logs).
    var streamCount: Int { table.withLockedValue { $0.slots.count } }
}
