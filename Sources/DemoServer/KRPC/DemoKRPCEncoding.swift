import JSONToolkit
import ListenUpKRPC

// Server-side encoders of the DTOs the client module only decodes: each
// writes the type as kotlinx does (declaration order, Kotlin defaults
// omitted, nullable fields without a default written as `null`; §1.4, §3).

extension ServerInfo {
    /// `ServerInfo` (§3.1): `remoteUrl`, `pushEnabled`, `rootResetArmed` omitted at their defaults.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("name", name)
        object.string("version", version)
        object.string("apiVersion", apiVersion)
        object.bool("setupRequired", setupRequired)
        object.string("registrationPolicy", registrationPolicy.rawValue)
        object.stringIfPresent("remoteUrl", remoteUrl)
        object.boolIfTrue("pushEnabled", pushEnabled)
        object.boolIfTrue("rootResetArmed", rootResetArmed)
        object.string("instanceId", instanceId)
        return object.finished()
    }
}

extension User {
    /// `User` (§3.2): `permissions` omitted when it is `{canEdit:true, canShare:true}`,
    /// `approvedBy`/`approvedAt` when null.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("email", email)
        object.string("displayName", displayName)
        object.string("role", role.rawValue)
        object.string("status", status.rawValue)
        object.integer("createdAt", createdAt)
        if permissions != UserPermissions() {
            var nested = JSONWriter.object()
            if !permissions.canEdit { nested.bool("canEdit", false) }
            if !permissions.canShare { nested.bool("canShare", false) }
            object.raw("permissions", nested.finished())
        }
        object.stringIfPresent("approvedBy", approvedBy)
        object.integerIfPresent("approvedAt", approvedAt)
        return object.finished()
    }
}

extension AuthSession {
    /// `AuthSession` (§3.2): every field.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("accessToken", accessToken)
        object.integer("accessTokenExpiresAt", accessTokenExpiresAt)
        object.string("refreshToken", refreshToken)
        object.integer("refreshTokenExpiresAt", refreshTokenExpiresAt)
        object.string("sessionId", sessionId)
        object.raw("user", user.kotlinJSON)
        return object.finished()
    }
}

extension SyncPage {
    /// `SyncPage` (§3.4): items are JSON strings; `nextCursor` is always written.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("domain", domain)
        object.raw("items", JSONWriter.strings(items))
        object.integer("nextCursor", nextCursor)
        object.bool("hasMore", hasMore)
        return object.finished()
    }
}

extension DomainDigest {
    /// `DomainDigest` (§3.4).
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.integer("cursor", cursor)
        object.integer("count", count)
        object.string("hash", hash)
        return object.finished()
    }
}

extension PlaybackPositionSyncPayload {
    /// `PlaybackPositionSyncPayload` (§3.5): `volumeBoostDb` omitted at 0,
    /// `measuredGainDb` at null; `currentChapterId` and `deletedAt` always written.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("bookId", bookId)
        object.integer("positionMs", positionMs)
        object.integer("lastPlayedAt", lastPlayedAt)
        object.bool("finished", finished)
        object.float("playbackSpeed", playbackSpeed)
        object.string("currentChapterId", currentChapterId)
        if volumeBoostDb != 0 { object.float("volumeBoostDb", volumeBoostDb) }
        if let measuredGainDb { object.float("measuredGainDb", measuredGainDb) }
        object.integer("revision", revision)
        object.integer("updatedAt", updatedAt)
        object.integer("createdAt", createdAt)
        object.integer("deletedAt", deletedAt)
        return object.finished()
    }
}

extension ContributorSyncPayload {
    /// `ContributorSyncPayload` (§3.5): `sortName` and `deletedAt` always
    /// written; `asin`, `description`, `imagePath`, `birthDate`,
    /// `deathDate`, `website` omitted at null, `aliases` when empty.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("name", name)
        object.string("sortName", sortName)
        object.integer("revision", revision)
        object.integer("updatedAt", updatedAt)
        object.integer("createdAt", createdAt)
        object.integer("deletedAt", deletedAt)
        object.stringIfPresent("asin", asin)
        object.stringIfPresent("description", description)
        object.stringIfPresent("imagePath", imagePath)
        object.stringIfPresent("birthDate", birthDate)
        object.stringIfPresent("deathDate", deathDate)
        object.stringIfPresent("website", website)
        if !aliases.isEmpty { object.raw("aliases", JSONWriter.strings(aliases)) }
        return object.finished()
    }
}

extension SeriesSyncPayload {
    /// `SeriesSyncPayload` (§3.5): `sortName` and `deletedAt` always
    /// written; `asin`, `description`, `coverPath` omitted at null.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("name", name)
        object.string("sortName", sortName)
        object.integer("revision", revision)
        object.integer("updatedAt", updatedAt)
        object.integer("createdAt", createdAt)
        object.integer("deletedAt", deletedAt)
        object.stringIfPresent("asin", asin)
        object.stringIfPresent("description", description)
        object.stringIfPresent("coverPath", coverPath)
        return object.finished()
    }
}

extension ListeningEventSyncPayload {
    /// `ListeningEventSyncPayload` (§3.5): `deviceLabel` and `deletedAt` always written.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("bookId", bookId)
        object.integer("startPositionMs", startPositionMs)
        object.integer("endPositionMs", endPositionMs)
        object.integer("startedAt", startedAt)
        object.integer("endedAt", endedAt)
        object.float("playbackSpeed", playbackSpeed)
        object.string("tz", tz)
        object.string("deviceLabel", deviceLabel)
        object.integer("revision", revision)
        object.integer("updatedAt", updatedAt)
        object.integer("createdAt", createdAt)
        object.integer("deletedAt", deletedAt)
        return object.finished()
    }
}

extension PreparedPlayback {
    /// `PreparedPlayback` (§3.6): `resumePosition` always written (maybe
    /// `null`), `coverUrl` omitted when null, `transcodeUnavailable` when false.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("bookId", bookId)
        object.raw("audioFiles", JSONWriter.array(audioFiles.map(\.kotlinJSON)))
        object.raw("resumePosition", resumePosition?.kotlinJSON ?? "null")
        object.stringIfPresent("coverUrl", coverUrl)
        object.boolIfTrue("transcodeUnavailable", transcodeUnavailable)
        return object.finished()
    }
}

extension PreparedAudioFile {
    /// `PreparedAudioFile` (§3.6): `hlsUrl` omitted when null.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("fileId", fileId)
        object.integer("index", Int64(index))
        object.string("url", url)
        object.string("format", format)
        object.integer("durationMs", durationMs)
        object.integer("sizeBytes", sizeBytes)
        object.stringIfPresent("hlsUrl", hlsUrl)
        return object.finished()
    }
}

extension JSONWriter {
    /// `"key":<number>` for a Kotlin `Float`, printed as Kotlin's `toString`
    /// prints it (`1.0`, `1.25`).
    mutating func float(_ key: String, _ value: Double) {
        raw(key, Self.float(value))
    }

    /// A Float as Kotlin prints it (non-finite values never get here: every
    /// decoded number is finite).
    static func float(_ value: Double) -> String {
        let float = Float(value)
        return float.isFinite ? float.description : "0.0"
    }
}
