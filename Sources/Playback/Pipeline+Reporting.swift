import CGStreamer
import Dispatch
import ListenUpCore
import Logging

/// What the engine says: status, failures, and the position while playing
/// (a ticker on the queue). On the queue.
extension Pipeline {
    func report(_ status: PlaybackEngineStatus) {
        guard status != lastStatus else { return }
        lastStatus = status
        emit(.status(status))
        if status == .playing { startTicker() } else if case .buffering = status {} else { stopTicker() }
    }

    func fail(_ failure: PlaybackFailure) {
        guard !failed else { return }
        failed = true
        wantsPlaying = false
        settling = false
        stopTicker()
        if let playbin { gst_element_set_state(playbin.pointer, GST_STATE_READY) }
        logger.warning("Playback failed", metadata: ["kind": "\(failure.kind.rawValue)", "detail": "\(failure.detail)"])
        lastStatus = .failed(failure)
        emit(.status(.failed(failure)))
    }

    func setPositionInterval(_ interval: Duration) {
        let interval = max(interval, .milliseconds(50))
        guard interval != positionInterval else { return }
        positionInterval = interval
        if ticker != nil {
            stopTicker()
            startTicker()
        }
    }

    /// The ticker: a timer source on the queue itself, so its reports are
    /// ordered with everything else the queue does.
    private func startTicker() {
        guard ticker == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        schedule(timer)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.emit(.position(self.currentPosition()))
        }
        timer.resume()
        ticker = timer
    }

    /// The next report one interval from now, then every interval.
    private func schedule(_ timer: any DispatchSourceTimer) {
        let milliseconds = Int(positionInterval.components.seconds * 1_000 + positionInterval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
    }

    func stopTicker() {
        ticker?.cancel()
        ticker = nil
    }
}
