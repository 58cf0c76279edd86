// The pairing protocol's values and rules (events, state, requests, devices,
// codes, the listenup-pair: URI) live in PairingProtocol, which has no I/O,
// so the app's core can use them without linking SwiftNIO. Everyone who
// drives the server through this module sees them as before.
@_exported import PairingProtocol
