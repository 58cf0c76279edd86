import ListenUpCore
import ListenUpKRPC

/// The account's playback preferences over kRPC (addendum §1.7):
/// `UserPreferencesService.getMyPreferences` and `updateMyPreferences`
/// (PATCH: only the fields set are sent; the server merges, clamps and
/// answers with what it keeps, then sends `SyncControl.PreferencesChanged`
/// to the user's event streams). Upstream: `api/UserPreferencesService.kt`,
/// `server/.../api/UserPreferencesServiceImpl.kt`.
extension KRPCServerConnection {
    /// True: today's server keeps them for all of the user's devices.
    public nonisolated var keepsAccountPreferences: Bool { true }

    /// `getMyPreferences()`: the stored row, or the server's defaults.
    public func accountPreferences() async throws(ServerError) -> AccountPreferences? {
        KRPCMapping.preferences(try await call(.getMyPreferences, NoArguments(), returning: UserPreferencesDto.self))
    }

    /// `updateMyPreferences(request)` with the fields `change` sets; the
    /// merged, clamped row the server answers.
    public func updateAccountPreferences(_ change: AccountPreferencesChange) async throws(ServerError) -> AccountPreferences? {
        let request = UpdateUserPreferencesRequest(defaultPlaybackSpeed: change.defaultPlaybackSpeed,
                                                   defaultSkipForwardSec: change.skipForwardSeconds,
                                                   defaultSkipBackwardSec: change.skipBackwardSeconds,
                                                   defaultSleepTimerMin: change.sleepTimerMinutes,
                                                   defaultVolumeBoostDb: change.volumeBoostDb)
        return KRPCMapping.preferences(try await call(.updateMyPreferences, RequestArguments(request), returning: UserPreferencesDto.self))
    }
}

extension KRPCMapping {
    /// The app's preferences from the wire's (`shakeToResetSleepTimer` is a phone's; not kept).
    static func preferences(_ dto: UserPreferencesDto) -> AccountPreferences {
        AccountPreferences(defaultPlaybackSpeed: dto.defaultPlaybackSpeed, skipForwardSeconds: dto.defaultSkipForwardSec,
                           skipBackwardSeconds: dto.defaultSkipBackwardSec, sleepTimerMinutes: dto.defaultSleepTimerMin,
                           volumeBoostDb: dto.defaultVolumeBoostDb)
    }
}
