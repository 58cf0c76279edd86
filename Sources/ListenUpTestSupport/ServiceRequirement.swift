import Foundation
import Testing

/// Tests of a real service (Secret Service, avahi-daemon) that is missing
/// must neither pass unnoticed nor fail on a machine that simply lacks it:
/// they skip, and the skip is reported. Where the service must be there
/// (`make test` sets `LISTENUP_REQUIRE_AVAHI=1`, `build-aux/with-keyring`
/// sets `LISTENUP_REQUIRE_KEYRING=1`) a missing one fails the test.
public enum ServiceRequirement {
    /// Thrown when a required service is missing (the test fails with it).
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether the environment variable `name` is `1`.
    public static func isRequired(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[name] == "1"
    }

    /// Returns when `available`. Otherwise throws ``Missing`` (a failure) when
    /// `variable` is `1`, and else ends the test with `Test.cancel`, which
    /// Swift Testing reports as a skipped test with `reason`.
    public static func check(_ available: Bool, requiredBy variable: String, _ reason: @autoclosure () -> String) throws {
        guard !available else { return }
        if isRequired(variable) {
            throw Missing(description: "\(reason()) (and \(variable)=1 requires it)")
        }
        try Test.cancel("skipped: \(reason()) (\(variable)=1 makes this a failure)")
    }
}
