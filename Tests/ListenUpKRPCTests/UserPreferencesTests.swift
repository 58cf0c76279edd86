import Foundation
import Testing
@testable import ListenUpKRPC

/// The account's playback preferences (addendum §1.7): the DTO with its
/// omitted defaults, the PATCH request, and the server's merge and clamps.
@Suite("User preferences")
struct UserPreferencesTests {
    @Test func defaultsAreOmittedOnTheWire() throws {
        let reply = try Fixture.message("call_success_get_my_preferences.json")
        guard case .callSuccess(let success) = reply else {
            Issue.record("not a CallSuccess: \(reply)")
            return
        }
        let preferences = try AppResult<UserPreferencesDto>.decode(from: success.data).get()
        #expect(preferences == .serverDefaults)
        #expect(preferences.defaultSleepTimerMin == nil && preferences.defaultVolumeBoostDb == 0)
        // Encoding omits the same two fields at their defaults, and writes them otherwise.
        let encoded = try KRPCJSON.encode(preferences)
        #expect(!encoded.contains("defaultSleepTimerMin") && !encoded.contains("defaultVolumeBoostDb"))
        #expect(Fixture.firstKey(encoded) == "defaultPlaybackSpeed")
        let set = UserPreferencesDto(defaultPlaybackSpeed: 1.25, defaultSkipForwardSec: 45, defaultSkipBackwardSec: 15,
                                     defaultSleepTimerMin: 30, shakeToResetSleepTimer: true, defaultVolumeBoostDb: 4.5)
        let value = try Fixture.value(try KRPCJSON.encode(set))
        #expect(value["defaultSleepTimerMin"]?.doubleValue == 30 && value["defaultVolumeBoostDb"]?.doubleValue == 4.5)
        #expect(try KRPCJSON.decode(UserPreferencesDto.self, from: try KRPCJSON.encode(set)) == set)
    }

    @Test func requiredFieldsAreRequired() {
        #expect(throws: KRPCDecodingError.self) {
            try KRPCJSON.decode(UserPreferencesDto.self, from: #"{"defaultPlaybackSpeed":1,"defaultSkipForwardSec":30}"#)
        }
    }

    @Test func updateSendsOnlyTheChangedFields() throws {
        let request = UpdateUserPreferencesRequest(defaultSkipForwardSec: 45)
        let call = KRPCMessage.call(callId: "1:updateMyPreferences:9", method: .updateMyPreferences,
                                    arguments: try KRPCJSON.encode(RequestArguments(request)), connectionId: 1)
        #expect(try Fixture.value(call.encoded()) == (try Fixture.value(try Fixture.text("call_data_update_my_preferences.json"))))
        #expect(try KRPCJSON.encode(RequestArguments(UpdateUserPreferencesRequest())) == #"{"request":{}}"#)
        #expect(UpdateUserPreferencesRequest().isEmpty && !request.isEmpty)
        #expect(try KRPCJSON.decode(UpdateUserPreferencesRequest.self, from: #"{"defaultSkipForwardSec":45}"#) == request)
    }

    @Test func mergeKeepsUnsetFieldsAndClampsAsTheServer() {
        let base = UserPreferencesDto(defaultPlaybackSpeed: 1.5, defaultSkipForwardSec: 30, defaultSkipBackwardSec: 10,
                                      defaultSleepTimerMin: 20, shakeToResetSleepTimer: true, defaultVolumeBoostDb: 3)
        #expect(UpdateUserPreferencesRequest().merged(onto: base) == base)
        let clamped = UpdateUserPreferencesRequest(defaultPlaybackSpeed: 9, defaultSkipForwardSec: 1, defaultSkipBackwardSec: 999,
                                                   defaultSleepTimerMin: 0, defaultVolumeBoostDb: -2).merged(onto: base)
        #expect(clamped == UserPreferencesDto(defaultPlaybackSpeed: 4, defaultSkipForwardSec: 5, defaultSkipBackwardSec: 300,
                                              defaultSleepTimerMin: 1, shakeToResetSleepTimer: true, defaultVolumeBoostDb: 0))
        let partial = UpdateUserPreferencesRequest(defaultVolumeBoostDb: 20).merged(onto: .serverDefaults)
        #expect(partial.defaultVolumeBoostDb == 12 && partial.defaultSkipForwardSec == 30 && partial.defaultSleepTimerMin == nil)
    }

    @Test func methodsNameTheirService() {
        #expect(KRPCMethod.getMyPreferences.service.rawValue == "com.calypsan.listenup.api.UserPreferencesService")
        #expect(KRPCMethod.updateMyPreferences.service.mount == .authed)
        #expect(KRPCMethod.updateMyPreferences.description == "UserPreferencesService.updateMyPreferences")
        #expect(!KRPCMethod.getMyPreferences.isStream)
    }
}
