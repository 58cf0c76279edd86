import Foundation
import ListenUpCore
import Logging

/// Runs the headless front: presenter on the main actor, stdin read on a
/// thread of its own and fed in order through an `AsyncStream`.
///
/// The process exits 0 on `{"action":"quit"}` or at the end of input.
public enum HeadlessRunner {
    /// Starts presenting and reading; never returns (the main queue runs until
    /// the process exits).
    /// - Parameter begin: runs once the presenter listens (e.g. `navigator.start()`),
    ///   so the first navigation is reported too.
    @MainActor
    /// - Parameter qrPNGPath: `--qr-png`: where each pairing code's QR is written.
    public static func run(navigator: AppNavigator, logger: Logger, qrPNGPath: String? = nil, begin: @MainActor () -> Void) -> Never {
        let presenter = HeadlessPresenter(navigator: navigator, logger: logger, qrPNGPath: qrPNGPath,
                                          emit: HeadlessPresenter.standardOutput)
        presenter.start()
        begin()
        let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let reader = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        reader.name = "listenup-stdin"
        reader.start()
        Task { @MainActor in
            for await line in lines {
                if presenter.handle(line: line) == .quit { break }
            }
            logger.debug("Headless session ends")
            presenter.stop()
            await navigator.shutdown(grace: .seconds(2))
            exit(0)
        }
        dispatchMain()
    }
}
