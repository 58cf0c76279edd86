import Foundation
import ListenUpAPI

/// Request bodies checked as strictly as the real server's huma does.
extension DemoService {
    /// Checks the body like huma does, then decodes it.
    func decode<T: Decodable>(_ request: DemoRequest, as type: T.Type, required: [String], optional: [String],
                                      nested: [String: [String]] = [:]) -> Result<T, DemoResponse> {
        guard let contentType = request.header("Content-Type"),
              contentType.lowercased().hasPrefix("application/json") else {
            return .failure(.failure(415, APIMessage.validationFailed))
        }
        guard !request.body.isEmpty else { return .failure(.failure(400, APIMessage.bodyRequired)) }
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return .failure(.failure(400, APIMessage.validationFailed))
        }
        let known = Set((required + optional).map { $0.lowercased() })
        var problems: [String] = []
        for key in required where !object.keys.contains(where: { $0.lowercased() == key }) {
            problems.append("expected required property \(key) to be present (body: \(Self.goMap(object)))")
        }
        for key in object.keys.sorted() where !known.contains(key.lowercased()) {
            problems.append("unexpected property (body.\(key): \(Self.goMap(object)))")
        }
        for (parent, allowed) in nested {
            guard let child = object.first(where: { $0.key.lowercased() == parent })?.value as? [String: Any] else { continue }
            for key in child.keys.sorted() where !allowed.contains(key.lowercased()) {
                problems.append("unexpected property (body.\(parent).\(key): \(Self.goMap(child)))")
            }
        }
        guard problems.isEmpty else { return .failure(.failure(422, problems.joined(separator: "; "))) }
        // Huma matches keys case-insensitively: normalise before decoding.
        var normalised: [String: Any] = [:]
        for (key, value) in object { normalised[key.lowercased()] = value }
        guard let data = try? JSONSerialization.data(withJSONObject: normalised),
              let decoded = try? ListenUpJSON.decoder.decode(T.self, from: data) else {
            return .failure(.failure(422, "expected string"))
        }
        return .success(decoded)
    }

    /// Go's `%v` of a parsed body, as huma echoes it in 422 messages.
    static func goMap(_ object: [String: Any]) -> String {
        "map[" + object.keys.sorted().map { key in
            let value = object[key]
            if let nested = value as? [String: Any] { return "\(key):\(goMap(nested))" }
            return "\(key):\(value.map { "\($0)" } ?? "")"
        }.joined(separator: " ") + "]"
    }
}

extension DemoService {
    /// The keys `device_info` may hold (any other is a 422).
    static var deviceInfoKeys: [String] {
        ["device_type", "platform", "platform_version", "client_name", "client_version", "client_build",
         "device_name", "device_model", "browser_name", "browser_version"]
    }
}
