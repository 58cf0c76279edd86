import Foundation
import Testing
@testable import ListenUpCore

/// The player's and the downloads' failure codes: closed sets, each with one
/// message, and the same strings on the wire (headless `code`, manifests).
@Suite("Failure codes")
struct FailureCodeTests {
    @Test func thePlayersCodesAreTheDocumentedStrings() {
        #expect(PlayerModel.Failure.Code.allCases.map(\.rawValue) == [
            "noAudioOutput", "unauthorized", "forbidden", "notFound", "network", "decode", "other", "sessionLapsed", "noAudio", "unknownBook",
        ])
        let kinds: [PlaybackFailure.Kind] = [.noAudioOutput, .unauthorized, .forbidden, .notFound, .network, .decode, .other]
        for kind in kinds {
            #expect(PlayerModel.Failure.Code(kind).rawValue == kind.rawValue, "the engine's \(kind) keeps its name")
        }
    }

    @Test func eachPlayerCodeHasItsOwnMessage() {
        let messages = PlayerModel.Failure.Code.allCases.map(\.message)
        #expect(Set(messages).count == messages.count && !messages.contains(""))
        #expect(PlayerModel.Failure(.unknownBook) == PlayerModel.Failure(.unknownBook, message: "This book is not in the library any more."))
        #expect(PlayerModel.Failure(.sessionLapsed).message == "Sign in to listen.")
        #expect(PlayerModel.Failure(.network).message == "The server cannot be reached. Playback resumes from here when you press play.")
    }

    @Test func theDownloadsCodesAreTheDocumentedStrings() {
        #expect(BookDownload.Failure.Code.allCases.map(\.rawValue) == [
            "network", "diskFull", "noSpace", "notFound", "forbidden", "sessionLapsed", "sizeMismatch", "storage", "noAudio",
            "unknownBook", "unknownSize", "refused",
        ])
        let messages = BookDownload.Failure.Code.allCases.map { $0.message() }
        #expect(Set(messages).count == messages.count && !messages.contains(""))
        #expect(BookDownload.Failure(.refused).message == "The server refused to send this book. Try again later.")
        let noSpace = BookDownload.Failure.noSpace(needed: 321_000_000, available: 120_000_000)
        #expect(noSpace.code == .noSpace && noSpace.message.contains(Localization.bytes(321_000_000))
            && noSpace.message.contains(Localization.bytes(120_000_000)))
    }

    @Test func aManifestKeepsTheCodeAsItsString() throws {
        let failure = try JSONDecoder().decode(BookDownload.Failure.self, from: Data(#"{"code":"diskFull","message":"Full."}"#.utf8))
        #expect(failure == BookDownload.Failure(.diskFull, message: "Full."))
        let written = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(failure)) as? [String: String])
        #expect(written == ["code": "diskFull", "message": "Full."])
    }
}
