import Observation

/// Follows one of the models the navigator replaces as sessions and routes
/// come and go (its player, downloads, account preferences): `current` says
/// which object it is now; `replaced` runs once each time that becomes
/// another object (or none), and `follow` then runs on the new one now and
/// after every change to what it reads (``StateObservation``), until it is
/// replaced in turn. The one way every front (window, headless, media
/// controls) follows a session's models.
///
/// ``update()`` checks `current`: call it from an observation of your own
/// (then `current` is tracked with it, in its order), or ``start()`` to let
/// the follower observe `current` itself.
@MainActor
public final class ModelFollower<Model: AnyObject> {
    private let current: @MainActor () -> Model?
    private let replaced: @MainActor (Model?) -> Void
    private let follow: (@MainActor (Model) -> Void)?
    private var followed: ObjectIdentifier?
    private var modelObservation: StateObservation?
    private var ownObservation: StateObservation?

    /// The model followed now (nil: none, or it is gone).
    public private(set) weak var model: Model?

    /// - Parameters:
    ///   - current: the model to follow now.
    ///   - replaced: runs when `current` becomes another object, before
    ///     `follow` runs on it.
    ///   - follow: runs on the model followed, now and on its changes.
    public init(_ current: @escaping @MainActor () -> Model?, replaced: @escaping @MainActor (Model?) -> Void = { _ in },
                follow: (@MainActor (Model) -> Void)? = nil) {
        self.current = current
        self.replaced = replaced
        self.follow = follow
    }

    /// Follows on its own: checks `current` now and after every change to
    /// what it reads.
    public func start() {
        ownObservation = StateObservation { [weak self] in self?.update() }
    }

    /// Checks `current`; when it is another object than the one followed,
    /// stops following that one and follows the new one.
    public func update() {
        let now = current()
        let identity = now.map(ObjectIdentifier.init)
        guard identity != followed else { return }
        followed = identity
        model = now
        modelObservation?.cancel()
        modelObservation = nil
        replaced(now)
        guard let now, let follow else { return }
        modelObservation = StateObservation { [weak now] in
            guard let now else { return }
            follow(now)
        }
    }

    /// Stops following (and observing `current`).
    public func cancel() {
        ownObservation?.cancel()
        ownObservation = nil
        modelObservation?.cancel()
        modelObservation = nil
    }
}
