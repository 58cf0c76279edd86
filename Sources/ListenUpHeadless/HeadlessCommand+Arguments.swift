import Foundation
import JSONToolkit
import ListenUpCore

/// The arguments of the commands that take several fields, and reading them.
extension HeadlessCommand {
    /// `setupAdmin`'s fields, as the form gets them: `name` is split at its
    /// last space when `firstName` and `lastName` are not given, and
    /// `confirmation` is the password unless given.
    public struct AdminFields: Equatable, Sendable {
        public var firstName: String
        public var lastName: String
        public var email: String
        public var password: String
        public var confirmation: String

        public init(firstName: String, lastName: String, email: String, password: String, confirmation: String) {
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.password = password
            self.confirmation = confirmation
        }
    }

    /// What `setPreferences` changes.
    public struct PreferencesChange: Equatable, Sendable {
        /// The values for the account (nil: unchanged).
        public var change: AccountPreferencesChange
        /// `defaultSleepTimerMin: null`: no default sleep timer.
        public var sleepOff: Bool
        /// Even out loudness (this computer's), nil: unchanged.
        public var evenLoudness: Bool?

        public init(change: AccountPreferencesChange, sleepOff: Bool = false, evenLoudness: Bool? = nil) {
            self.change = change
            self.sleepOff = sleepOff
            self.evenLoudness = evenLoudness
        }
    }

    static func adminFields(_ arguments: [String: JSONValue]) -> AdminFields {
        var first = arguments["firstName"]?.stringValue ?? ""
        var last = arguments["lastName"]?.stringValue ?? ""
        if let name = arguments["name"]?.stringValue?.trimmingCharacters(in: .whitespaces), first.isEmpty, last.isEmpty {
            if let space = name.lastIndex(of: " ") {
                first = String(name[..<space]).trimmingCharacters(in: .whitespaces)
                last = String(name[name.index(after: space)...])
            } else {
                first = name
            }
        }
        let password = arguments["password"]?.stringValue ?? ""
        return AdminFields(firstName: first, lastName: last, email: arguments["email"]?.stringValue ?? "", password: password,
                           confirmation: arguments["confirmation"]?.stringValue ?? password)
    }

    /// What `setPreferences` asks for: nil when a field is unknown, of the
    /// wrong type or out of range, or none is given.
    static func preferencesChange(_ arguments: [String: JSONValue]) -> PreferencesChange? {
        let known: Set = ["defaultPlaybackSpeed", "defaultSkipForwardSec", "defaultSkipBackwardSec", "defaultSleepTimerMin",
                          "defaultVolumeBoostDb", "evenLoudness"]
        guard !arguments.isEmpty, Set(arguments.keys).isSubset(of: known) else { return nil }
        var request = PreferencesChange(change: AccountPreferencesChange())
        func number(_ key: String, in range: ClosedRange<Double>) -> Double?? {
            guard let value = arguments[key] else { return .some(nil) }
            guard let number = value.doubleValue, number.isFinite, range.contains(number) else { return nil }
            return .some(number)
        }
        func whole(_ key: String, in range: ClosedRange<Int>) -> Int?? {
            guard let number = number(key, in: Double(range.lowerBound)...Double(range.upperBound)) else { return nil }
            guard let value = number else { return .some(nil) }
            return value.rounded() == value ? .some(Int(value)) : nil
        }
        guard let speed = number("defaultPlaybackSpeed", in: PlaybackSettings.rateRange),
              let forward = whole("defaultSkipForwardSec", in: PlaybackSettings.skipRange),
              let back = whole("defaultSkipBackwardSec", in: PlaybackSettings.skipRange),
              let boost = number("defaultVolumeBoostDb", in: ListeningRules.boostRange) else { return nil }
        request.change.defaultPlaybackSpeed = speed
        request.change.skipForwardSeconds = forward
        request.change.skipBackwardSeconds = back
        request.change.volumeBoostDb = boost
        if let sleep = arguments["defaultSleepTimerMin"] {
            if case .null = sleep {
                request.sleepOff = true
            } else {
                guard let minutes = whole("defaultSleepTimerMin", in: PlaybackSettings.sleepTimerRange), let minutes else { return nil }
                request.change.sleepTimerMinutes = minutes
            }
        }
        if let value = arguments["evenLoudness"] {
            guard let on = value.boolValue else { return nil }
            request.evenLoudness = on
        }
        return request
    }
}
