import Observation

/// Runs `apply` now and again after every change to the observable state it
/// read: the "sync-create, then on each notify" pattern for `@Observable`
/// models.
///
/// Changes made in one main-actor turn are coalesced into one call. `apply`
/// runs on the main actor, one main-queue hop after the change (Observation
/// reports changes before they are stored). Cancel it when the observer goes
/// away; it holds `apply` until then.
@MainActor
public final class StateObservation {
    private var apply: (@MainActor () -> Void)?

    /// Starts observing.
    public init(_ apply: @escaping @MainActor () -> Void) {
        self.apply = apply
        track()
    }

    /// Stops observing; `apply` is released.
    public func cancel() {
        apply = nil
    }

    private func track() {
        guard let apply else { return }
        withObservationTracking {
            apply()
        } onChange: { [weak self] in
            Task { @MainActor in self?.track() }
        }
    }
}
