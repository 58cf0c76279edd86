/// Loopback addresses for the tests' servers.
public enum Loopback {
    /// A loopback address of the caller's own: `127.x.y.z`, picked at
    /// random, never `127.0.0.1`.
    ///
    /// A server that stops and starts again on the port it had (a server
    /// coming back, or upgraded in place) binds here rather than on
    /// 127.0.0.1. There, between the stop and the start, its port may be
    /// taken by another test's listener or by the local end of any
    /// connection (the kernel hands out the same ephemeral range for both),
    /// and the start fails with "Address already in use". Nothing else binds
    /// an address of its own, and connections to it leave from 127.0.0.1.
    public static func privateAddress() -> String {
        "127.\(UInt8.random(in: 1...254)).\(UInt8.random(in: 1...254)).\(UInt8.random(in: 1...254))"
    }
}
