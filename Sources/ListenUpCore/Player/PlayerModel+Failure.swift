import Foundation

extension PlayerModel {
    /// Why playback stopped, for the user.
    public struct Failure: Equatable, Sendable {
        /// Why, for scripts: the raw value is the headless `code`, stable.
        public enum Code: String, CaseIterable, Equatable, Sendable {
            /// No audio output could be opened.
            case noAudioOutput
            /// The server refused the session for the audio (and a refresh
            /// did not help).
            case unauthorized
            /// The server does not let this account play the book.
            case forbidden
            /// The server has no audio for the book (or a downloaded file is gone).
            case notFound
            /// The server could not be reached.
            case network
            /// The audio could not be decoded.
            case decode
            /// Anything else the engine reported.
            case other
            /// Nobody is signed in, or the session has ended.
            case sessionLapsed
            /// The server lists no audio for the book.
            case noAudio
            /// The book is not in the library's cache.
            case unknownBook

            /// The engine's failure as the player reports it.
            init(_ kind: PlaybackFailure.Kind) {
                self = switch kind {
                case .noAudioOutput: .noAudioOutput
                case .unauthorized: .unauthorized
                case .forbidden: .forbidden
                case .notFound: .notFound
                case .network: .network
                case .decode: .decode
                case .other: .other
                }
            }

            /// What the user is told: the one table of the player's
            /// failure messages. (A failure the server explained, such as
            /// a refused audio request, carries the server's words instead:
            /// ``Failure/init(_:message:)``.)
            public var message: String {
                switch self {
                case .noAudioOutput: tr("No audio output: check that a sound device is connected and not in use.")
                case .unauthorized: tr("The server refused this session. Sign in again to keep listening.")
                case .forbidden: tr("The server does not let this account play this book.")
                case .notFound: tr("The server has no audio for this book any more. Refresh the library and try again.")
                case .network: tr("The server cannot be reached. Playback resumes from here when you press play.")
                case .decode: tr("This audio file cannot be played: it is damaged or in a format this computer cannot decode.")
                case .other: tr("Playback stopped because of an unexpected error.")
                case .sessionLapsed: tr("Sign in to listen.")
                case .noAudio: tr("The server lists no audio for this book. Refresh the library and try again.")
                case .unknownBook: tr("This book is not in the library any more.")
                }
            }
        }

        public var code: Code
        /// Translated; says what to do next.
        public var message: String

        /// A failure told with its code's message (``Code/message``).
        public init(_ code: Code) {
            self.init(code, message: code.message)
        }

        /// A failure told in other words: what a server or the connection
        /// said (``ServerError/userMessage``).
        public init(_ code: Code, message: String) {
            self.code = code
            self.message = message
        }
    }
}
