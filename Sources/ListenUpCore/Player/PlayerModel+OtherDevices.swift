import Foundation

/// Two devices, one book: a newer position from another device for the
/// book loaded here is taken at once when the book is not playing here;
/// while it plays, it keeps playing, and the other position is offered
/// when the user pauses (*Continue from 1:23:45*). A finish or restart made
/// elsewhere is kept either way, so the next write carries it.
extension PlayerModel {
    /// A position another device reported for the book loaded here.
    public struct PositionNotice: Equatable, Sendable {
        /// Tells two equal notices apart.
        public var id: UUID
        public var bookID: String
        /// Book position, milliseconds.
        public var position: Int64
        /// The device that listened there, when the server says (today's
        /// servers' position rows do not name it: nil).
        public var device: String?
        /// When it was listened there.
        public var listenedAt: Date
    }

    /// Whether the book loaded plays (or is about to) here.
    var isPlayingHere: Bool {
        status == .playing || status == .buffering || (status == .loading && wantsToPlay)
    }

    /// `reported` (newer than this device's row) is for the book loaded here.
    func otherDeviceMoved(_ reported: ListeningPosition, local: ListeningPosition?) {
        if finished != reported.finished { finished = reported.finished }
        if isPlayingHere {
            heldPosition = reported
            return
        }
        // Never a jump to the start from an empty row (a position deleted
        // or never listened elsewhere): the book keeps its place.
        guard reported.position > 0, reported.position != position else {
            try? listening.savePosition(reported.filling(from: local))
            return
        }
        // A jump: undo goes back to where the book was here.
        jumping {
            if timeline != nil {
                seek(to: reported.position)
            } else {
                moveOffered(to: reported.position)
            }
        }
        // Kept with the other device's time, not as listened here now.
        try? listening.savePosition(reported.filling(from: local))
        // A stopped book is not moved (it loads from the row kept above).
        guard position == reported.position else { return }
        adoptedPosition = PositionNotice(id: UUID(), bookID: reported.bookID, position: position, device: nil,
                                         listenedAt: reported.updatedAt)
    }

    /// The user paused: a newer position another device reported while the
    /// book played here is offered, when it is somewhere else.
    func offerHeldPosition() {
        guard let held = heldPosition else { return }
        heldPosition = nil
        guard held.bookID == nowPlaying?.bookID, abs(held.position - position) > 5_000 else { return }
        positionOffer = PositionNotice(id: UUID(), bookID: held.bookID, position: held.position, device: nil, listenedAt: held.updatedAt)
    }

    /// *Continue from 1:23:45*: moves to the position offered.
    func takeOffer() {
        guard let offer = positionOffer, offer.bookID == nowPlaying?.bookID else { return }
        positionOffer = nil
        seek(to: offer.position)
    }
}
