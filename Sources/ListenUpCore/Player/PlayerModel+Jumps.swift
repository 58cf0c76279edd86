import Foundation

/// Undoing a jump: where a book was before each jump is remembered, so a
/// stray click on the seek bar, a wrong chapter or another device's
/// position can be taken back.
///
/// What is a jump: a seek, a chapter (chosen, previous or next), a skip of
/// more than 30 s, taking another device's position (``takeOffer()``, or a
/// position adopted at once while the book is not playing here) and going
/// to a recent position. A move of 30 s or less is never one (the skip
/// buttons undo it), nor is the rewind after a pause, a book loading at its
/// resume point, or playing again from the start after the end.
///
/// The list (``recentPositions``) is per book, newest first, at most
/// ``recentPositionLimit``, kept while the session lasts (not saved):
///
/// | what happens | the list |
/// |---|---|
/// | a jump from P | P goes first, with when it was left; an entry within 5 s of P goes (the same place, left again) |
/// | a jump within 5 s of the last jump of the same book | nothing: a burst (dragging the seek bar, pressing Next Chapter three times) is one jump, undone to where it started |
/// | ``Intent/undoJump`` | the first entry is taken off and the book goes there; not a jump itself, so a second undo goes further back, never back and forth |
/// | ``Intent/jumpToRecent(_:)`` | that entry is taken off and the book goes there; a jump (never part of a burst), so undo comes back |
///
/// Every jump (a burst's too) sets ``lastJump`` for the window's toast
/// (*Jumped to 2:14:05*, Undo); an undo clears it.
extension PlayerModel {
    /// A place in a book left by a jump.
    public struct RecentPosition: Equatable, Sendable {
        /// Book position, milliseconds.
        public var position: Int64
        /// When the book was moved away from it.
        public var leftAt: Date

        /// A place at `position` (milliseconds), left at `leftAt`.
        public init(position: Int64, leftAt: Date) {
            self.position = position
            self.leftAt = leftAt
        }
    }

    /// The last jump, for a toast with Undo.
    public struct JumpNotice: Equatable, Sendable {
        /// Tells two equal notices apart.
        public var id: UUID
        /// The book that jumped.
        public var bookID: String
        /// Where the book landed, milliseconds.
        public var position: Int64
        /// Where undo goes back to (the place before the burst), milliseconds.
        public var undoPosition: Int64
        /// When it happened.
        public var at: Date
    }

    /// How many places are kept per book.
    public static let recentPositionLimit = 10
    /// A move of this much or less is not a jump, milliseconds.
    static let smallestJump: Int64 = 30_000
    /// Places this close are one, milliseconds.
    static let samePlace: Int64 = 5_000
    /// Jumps this close in time are one burst, seconds.
    static let burst: TimeInterval = 5

    /// Where the book loaded was before its last jumps, newest first (empty
    /// with nothing loaded). Observable, like the model's stored state.
    ///
    /// Main actor.
    public var recentPositions: [RecentPosition] {
        guard let bookID = nowPlaying?.bookID else { return [] }
        return jumpHistory[bookID] ?? []
    }

    /// Runs `move` (a seek, a chapter, a skip…) and remembers where the
    /// book was, when it moved far enough to be a jump.
    /// - Parameter coalescing: whether a jump right after another is part
    ///   of its burst (not for a place the user chose from the list).
    func jumping(coalescing: Bool = true, _ move: () -> Void) {
        guard let bookID = nowPlaying?.bookID else {
            move()
            return
        }
        let from = position
        move()
        guard nowPlaying?.bookID == bookID else { return }
        noteJump(bookID: bookID, from: from, to: position, coalescing: coalescing)
    }

    /// Skips by `milliseconds`: a jump when longer than 30 s.
    func skipping(by milliseconds: Int64) {
        if abs(milliseconds) > Self.smallestJump {
            jumping { skip(by: milliseconds) }
        } else {
            skip(by: milliseconds)
        }
    }

    private func noteJump(bookID: String, from: Int64, to: Int64, coalescing: Bool) {
        guard abs(to - from) > Self.smallestJump else { return }
        let now = clock()
        var list = jumpHistory[bookID] ?? []
        let inBurst = coalescing && lastJump.map { $0.bookID == bookID && now.timeIntervalSince($0.at) < Self.burst } ?? false
        if !inBurst || list.isEmpty {
            list.removeAll { abs($0.position - from) <= Self.samePlace }
            list.insert(RecentPosition(position: from, leftAt: now), at: 0)
            jumpHistory[bookID] = Array(list.prefix(Self.recentPositionLimit))
        }
        lastJump = JumpNotice(id: UUID(), bookID: bookID, position: to, undoPosition: list.first?.position ?? from, at: now)
    }

    /// Whether the book loaded can be moved now (loaded, or offered paused).
    private var canMove: Bool {
        nowPlaying != nil && (timeline != nil || status == .paused)
    }

    /// Back to where the book was before the last jump; that place leaves
    /// the list (undo is not a jump: a second one goes further back).
    func undoJump() {
        guard canMove, let bookID = nowPlaying?.bookID, var list = jumpHistory[bookID], !list.isEmpty else { return }
        let back = list.removeFirst()
        jumpHistory[bookID] = list
        lastJump = nil
        seek(to: back.position)
    }

    /// To the recent position at `index` (0 is the newest): a jump, so the
    /// place left is remembered and undo comes back.
    func jump(toRecent index: Int) {
        guard canMove, let bookID = nowPlaying?.bookID, var list = jumpHistory[bookID], list.indices.contains(index) else { return }
        let target = list.remove(at: index)
        jumpHistory[bookID] = list
        jumping(coalescing: false) { seek(to: target.position) }
    }
}
