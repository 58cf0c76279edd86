import Foundation
import Observation

/// The server setup screen: the typed address, its local check, and what
/// happened when the user pressed Connect.
///
/// Verifying an address over the network (`GET /api/v1/instance`) needs the
/// REST client, which this build does not have yet; Connect says so plainly
/// instead of pretending to connect.
@MainActor @Observable
public final class ServerSetupModel: ScreenModel {
    /// Where the screen stands.
    public enum Status: Equatable, Sendable {
        /// The user is typing; nothing to report.
        case editing
        /// The typed address was refused locally.
        case invalid(ServerAddressError)
        /// The address is well-formed, but this build cannot verify servers.
        case verificationUnavailable(ServerAddress)
    }

    /// What the user sends.
    public enum Intent: Equatable, Sendable {
        /// The URL field changed.
        case urlChanged(String)
        /// Connect was pressed (or Enter in the field).
        case connect
    }

    /// The URL field's text, as typed.
    public private(set) var urlText: String
    /// The outcome of the last Connect.
    public private(set) var status: Status = .editing

    /// Whether Connect can be pressed: something other than spaces is typed,
    /// and it is not the address just refused (pressing again would only
    /// repeat the same message; any edit enables it again).
    public var canConnect: Bool {
        if case .invalid = status { return false }
        return !urlText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// The error to show under the field, if any.
    public var fieldError: String? {
        if case .invalid(let error) = status { return error.userMessage }
        return nil
    }

    /// A plain-words notice for the area below the button, if any.
    public var notice: String? {
        if case .verificationUnavailable(let address) = status {
            return tr("%@ looks like a valid address, but this version of ListenUp can't check servers yet, so it can't connect. Server verification is coming in the next update.", address.url.absoluteString)
        }
        return nil
    }

    /// Makes the model, with the field pre-filled from `address` if given.
    /// With an address, the screen reports straight away what Connect would.
    public init(address: ServerAddress? = nil) {
        urlText = address?.url.absoluteString ?? ""
        if let address { status = .verificationUnavailable(address) }
    }

    /// Handles what the user did.
    public func send(_ intent: Intent) {
        switch intent {
        case .urlChanged(let text):
            guard text != urlText else { return }
            urlText = text
            status = .editing
        case .connect:
            switch ServerAddress.parse(urlText) {
            case .failure(let error): status = .invalid(error)
            case .success(let address): status = .verificationUnavailable(address)
            }
        }
    }

    public var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "url": .string(urlText),
            "canConnect": .bool(canConnect),
        ]
        switch status {
        case .editing:
            state["status"] = "editing"
        case .invalid(let error):
            state["status"] = "invalid"
            state["code"] = .string(error.code)
            state["message"] = .string(error.userMessage)
        case .verificationUnavailable(let address):
            state["status"] = "verificationUnavailable"
            state["normalizedURL"] = .string(address.url.absoluteString)
            state["code"] = "verificationUnavailable"
            state["message"] = .optional(notice)
        }
        return .object(state)
    }

    /// Headless: `{"action":"connect","url":"…"}` types the URL and presses Connect.
    public func handle(_ command: ScreenCommand) -> Bool {
        guard command.action == "connect" else { return false }
        send(.urlChanged(command.arguments["url"]?.stringValue ?? ""))
        send(.connect)
        return true
    }
}
