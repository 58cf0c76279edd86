import Foundation

/// Who this client is, as the app tells a server when it signs in: the
/// app's own type, which each connection writes in its protocol's shape at
/// its edge (REST v1's `device_info`, kRPC's `DeviceInfo`, both in
/// `ListenUpLive`).
public struct ClientDevice: Equatable, Sendable {
    /// `desktop`.
    public var deviceType: String?
    /// `Linux`.
    public var platform: String?
    /// The distribution's name and version (`os-release`'s `PRETTY_NAME`).
    public var platformVersion: String?
    public var clientName: String?
    public var clientVersion: String?
    /// The host name, the name a server shows for this device's session.
    public var deviceName: String?

    public init(deviceType: String? = nil, platform: String? = nil, platformVersion: String? = nil, clientName: String? = nil,
                clientVersion: String? = nil, deviceName: String? = nil) {
        self.deviceType = deviceType
        self.platform = platform
        self.platformVersion = platformVersion
        self.clientName = clientName
        self.clientVersion = clientVersion
        self.deviceName = deviceName
    }

    /// The app's version, as sent in `client_version`.
    public static let appVersion = "0.1.0"

    /// This desktop (login requires a device type and a platform). Reads
    /// /etc/os-release and the host name.
    public static func desktop(osRelease: String? = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
                               hostName: String = ProcessInfo.processInfo.hostName) -> ClientDevice {
        var fields: [String: String] = [:]
        for line in (osRelease ?? "").split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            // Quotes around the value go; not with Foundation's
            // trimmingCharacters, whose character sets cost the first frame.
            var value = line[line.index(after: equals)...]
            while let first = value.first, first == "\"" || first == "'" { value = value.dropFirst() }
            while let last = value.last, last == "\"" || last == "'" { value = value.dropLast() }
            fields[key] = String(value)
        }
        let osName = fields["PRETTY_NAME"] ?? fields["NAME"]
        return ClientDevice(
            deviceType: "desktop",
            platform: "Linux",
            platformVersion: osName,
            clientName: "ListenUp for Linux",
            clientVersion: appVersion,
            deviceName: hostName.isEmpty ? nil : hostName
        )
    }
}
