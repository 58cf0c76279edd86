import Foundation
import ListenUpAPI

extension DeviceInfo {
    /// The app's version, as sent in `client_version`.
    public static let appVersion = "0.1.0"

    /// Who this client is, for `device_info` (login requires `device_type`
    /// and `platform`). Reads /etc/os-release and the host name.
    public static func desktop(osRelease: String? = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
                               hostName: String = ProcessInfo.processInfo.hostName) -> DeviceInfo {
        var fields: [String: String] = [:]
        for line in (osRelease ?? "").split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            let value = line[line.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            fields[key] = value
        }
        let osName = fields["PRETTY_NAME"] ?? fields["NAME"]
        return DeviceInfo(
            deviceType: "desktop",
            platform: "Linux",
            platformVersion: osName,
            clientName: "ListenUp for Linux",
            clientVersion: appVersion,
            deviceName: hostName.isEmpty ? nil : hostName
        )
    }
}
