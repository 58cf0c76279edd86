/// A control frame of `observeEvents` (domain `control`, §3.4).
///
/// Open: a control type this build does not know is ``unknown(type:)``, and
/// unknown keys are ignored, so a newer server never breaks the stream.
public enum SyncControl: Sendable, Equatable {
    /// `SyncControl.Heartbeat`: the hello, then every 25 s.
    case heartbeat
    /// `SyncControl.CursorStale{lastKnownRevision}`: terminal. Re-run catch-up
    /// from the stored cursors, then resubscribe.
    case cursorStale(lastKnownRevision: Int64)
    /// `SyncControl.AccessChanged{scope?}`: the accessible set changed. With a
    /// scope, re-fetch those ids; without one (nil), re-derive everything.
    case accessChanged(scope: AccessScope?)
    /// `SyncControl.UserDeleted{reason?}`: the account was deleted; sign out.
    case userDeleted(reason: String?)
    /// `SyncControl.StreamError{error}`: the stream failed; reconnect with the current cursor.
    case streamError(AppError)
    /// `SyncControl.ActiveSessionsChanged`: presence changed (content-free nudge).
    case activeSessionsChanged
    /// `SyncControl.ActivityChanged`: legacy no-op.
    case activityChanged
    /// `SyncControl.PreferencesChanged`: re-fetch the user's preferences.
    case preferencesChanged
    /// `SyncControl.ServerInfoChanged`: re-fetch ``ServerInfo``.
    case serverInfoChanged
    /// `SyncControl.LibraryDataChanged`: run a digest reconcile of every domain.
    case libraryDataChanged
    /// A control type this build does not know; ignore it.
    case unknown(type: String)
}

/// The ids an `AccessChanged` frame names (`AccessScope`).
public struct AccessScope: Codable, Sendable, Equatable {
    /// Collections whose membership or sharing changed.
    public var collectionIds: [String]
    /// Books whose accessibility may have flipped.
    public var bookIds: [String]

    /// Creates a scope; each parameter sets the property of the same name.
    public init(collectionIds: [String] = [], bookIds: [String] = []) {
        self.collectionIds = collectionIds
        self.bookIds = bookIds
    }

    private enum CodingKeys: String, CodingKey {
        case collectionIds, bookIds
    }

    /// Decodes a scope; a missing list reads as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(collectionIds: try container.decodeIfPresent([String].self, forKey: .collectionIds) ?? [],
                  bookIds: try container.decodeIfPresent([String].self, forKey: .bookIds) ?? [])
    }
}

extension SyncControl: Decodable {
    private enum CodingKeys: String, CodingKey {
        case type, lastKnownRevision, scope, reason, error
    }

    /// Decodes by `type`; never fails on an unknown one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "SyncControl.Heartbeat": self = .heartbeat
        case "SyncControl.CursorStale":
            self = .cursorStale(lastKnownRevision: try container.decode(Int64.self, forKey: .lastKnownRevision))
        case "SyncControl.AccessChanged":
            self = .accessChanged(scope: try container.decodeIfPresent(AccessScope.self, forKey: .scope))
        case "SyncControl.UserDeleted":
            self = .userDeleted(reason: try container.decodeIfPresent(String.self, forKey: .reason))
        case "SyncControl.StreamError": self = .streamError(try container.decode(AppError.self, forKey: .error))
        case "SyncControl.ActiveSessionsChanged": self = .activeSessionsChanged
        case "SyncControl.ActivityChanged": self = .activityChanged
        case "SyncControl.PreferencesChanged": self = .preferencesChanged
        case "SyncControl.ServerInfoChanged": self = .serverInfoChanged
        case "SyncControl.LibraryDataChanged": self = .libraryDataChanged
        default: self = .unknown(type: type)
        }
    }
}
