import Foundation

/// Reads what a child writes to a pipe, to the pipe's end, with blocking
/// reads on a thread of its own.
///
/// Not `FileHandle.readabilityHandler`: that arms a libdispatch read source
/// on the descriptor, and tearing such sources down while others are set up
/// on other threads (every test with a child process does both) can leave
/// libdispatch's epoll bookkeeping pointing at freed memory on Linux
/// (swift-corelibs-libdispatch#949). A fresh-clone CI run crashed in the
/// test runner that way. A blocking read registers nothing anywhere; end of
/// file ends the loop.
public enum PipeDrain {
    /// Starts reading `pipe`: `received` gets each chunk as it comes, then
    /// one empty `Data` at end of file (or a read error). The pipe stays
    /// alive until then, so its descriptor is not closed under the read;
    /// then its read end is closed at once. Left to the pipe's
    /// deallocation, read ends piled up in the test runner (more than
    /// 1,500 in one run), and with that many descriptors Foundation's
    /// `Process.run()` on Linux can read past a buffer while it walks
    /// `/proc/self/fd` (swift-corelibs-foundation#5472): the crash of a
    /// fresh-clone CI run.
    public static func start(_ pipe: Pipe, _ received: @escaping @Sendable (Data) -> Void) {
        let reading = Reading(pipe: pipe)
        Thread.detachNewThread {
            let descriptor = reading.pipe.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    received(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            try? reading.pipe.fileHandleForReading.close()
            received(Data())
        }
    }

    /// `@unchecked Sendable`: the pipe is handed to the reading thread and
    /// only its read end's descriptor is used there.
    private final class Reading: @unchecked Sendable {
        let pipe: Pipe
        init(pipe: Pipe) { self.pipe = pipe }
    }
}
