import Foundation
import JSONToolkit
import ListenUpCore

extension PairingModel: HeadlessScreen {
    /// `{"phase":…,"hasQR":…,"request":{client,model}|null,"devices":[{id,name,model}]}`
    /// (never the URI or its code: those go out only as `pairingCode` events).
    var snapshot: JSONValue {
        let phaseName: String = switch phase {
        case .closed: "closed"
        case .starting: "starting"
        case .open: "open"
        case .expired: "expired"
        case .failed: "failed"
        }
        let requestValue: JSONValue = request.map { ["client": .string($0.clientName), "model": .string($0.clientModel)] } ?? .null
        return [
            "phase": .string(phaseName),
            "hasQR": .bool(qrImage != nil),
            "request": requestValue,
            "devices": .array(devices.map { ["id": .string($0.id), "name": .string($0.name), "model": .string($0.model)] }),
        ]
    }

    /// `confirmPairing {"accept": Bool}` (only with a pending request), `closePairing`,
    /// `showNewCode`, `revokeDevice {"id": String}`.
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .confirmPairing(let accept):
            guard request != nil else { return false }
            send(.answer(accept: accept))
        case .closePairing:
            dismiss()
        case .showNewCode:
            send(.showNewCode)
        case .revokeDevice(let id):
            send(.revoke(deviceID: id))
        default:
            return false
        }
        return true
    }
}
