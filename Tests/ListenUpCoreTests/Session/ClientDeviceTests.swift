import ListenUpCore
import Testing

/// What the app says it is when it signs in, read from `os-release`.
@Suite struct ClientDeviceTests {
    @Test func theDistributionsPrettyNameIsReadWithoutItsQuotes() {
        let device = ClientDevice.desktop(osRelease: """
            NAME="Debian GNU/Linux"
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            VERSION_ID='12'
            ID=debian
            """, hostName: "study")
        #expect(device.platformVersion == "Debian GNU/Linux 12 (bookworm)")
        #expect(device.deviceName == "study")
        #expect(device.deviceType == "desktop")
        #expect(device.platform == "Linux")
    }

    @Test func withoutAPrettyNameTheNameStandsAndNothingIsMadeUp() {
        #expect(ClientDevice.desktop(osRelease: "NAME='Fedora Linux'\nVERSION_ID=41", hostName: "").platformVersion == "Fedora Linux")
        let unknown = ClientDevice.desktop(osRelease: nil, hostName: "")
        #expect(unknown.platformVersion == nil)
        #expect(unknown.deviceName == nil)
    }
}
