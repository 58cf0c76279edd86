// swift-tools-version:6.0
//
// ListenUp for Linux. Modules are split by weight (see docs/architecture.md):
//   CAdwaita → GtkBridge → ListenUpUI → listenup
//   JSONToolkit (reader, writer, escaper, JSONValue; pure Swift, no dependencies) ← ListenUpAPI,
//     ListenUpKRPC, KRPCSession, ListenUpCore, ListenUpHeadless, Pairing, DemoServer
//   ServerSentEvents (the one event-stream parser, pure Swift) ← ListenUpLive, Pairing
//   ListenUpCore (models, state machines, service interfaces, the seam's own domain types:
//     no GTK, no NIO, no SQLite, no wire contract) ← ListenUpHeadless ← listenup
//   ListenUpAPI (REST v1 wire contract, pure data), ListenUpCore ← ListenUpLive (the adapters:
//     both server clients, REST v1 and kRPC, each mapping its wire types at its edge, with
//     their one SessionRefresher; HTTP, SQLite, keyring, GSettings, Avahi, pairing host;
//     and Dependencies.live, the composition root) ← listenup
//   CLibSecret → Keyring, CAvahi → LANDiscovery: one Swift wrapper per C library (both opened
//     on first use, like CGStreamer → Playback)
//   DemoServer (SwiftNIO, shares ListenUpAPI) ← listenup-demo-server
//   CQREncode → QRCode (libqrencode, the QR encoder injected into the core's render actor)
//     ← ListenUpLive; PNGEncoding (shared, pure Swift) ← ListenUpCore
//   PairingProtocol (values and rules, no I/O) ← Pairing (discovery server, TLS identity;
//     no GTK) ← listenup-companion; the core uses PairingProtocol only
import PackageDescription

let package = Package(
    name: "ListenUp",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "listenup", targets: ["listenup"]),
        .executable(name: "listenup-demo-server", targets: ["listenup-demo-server"]),
        .executable(name: "listenup-companion", targets: ["listenup-companion"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.25.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    ],
    targets: [
        // The one umbrella over gtk4 + libadwaita + glib-unix (two umbrellas would
        // give two copies of every GTK type).
        .systemLibrary(
            name: "CAdwaita",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]
        ),
        .target(
            name: "GtkBridge",
            dependencies: ["CAdwaita", "GObjectOwnership", .product(name: "Logging", package: "swift-log")]
        ),
        // gettext's header (the functions are in glibc).
        .systemLibrary(name: "CGettext"),
        // glibc's allocator header, for malloc_trim (the functions are in glibc).
        .systemLibrary(name: "CMalloc"),
        // JSON without Foundation's Codable machinery, pure Swift, no dependencies:
        // the strict fast reader (and its declarative per-type helper), the one
        // writer, the one string escaper and the one JSON value type. Both wire
        // contracts, the core, the headless front, pairing and the demo server use it.
        .target(name: "JSONToolkit"),
        // The one `text/event-stream` parser (pure Swift, no dependencies): the REST
        // client's live events and the companion's player events.
        .target(name: "ServerSentEvents"),
        // The ListenUp REST v1 wire contract: Codable types, the envelope,
        // endpoint descriptions. Pure data, no networking.
        .target(name: "ListenUpAPI", dependencies: ["JSONToolkit"]),
        // libsecret (the Secret Service): where sessions are kept. Opened with
        // dlopen on first use, not linked (a first launch never loads it):
        // our declarations of the five functions and the loader.
        .target(name: "CLibSecret", dependencies: ["CGio"]),
        // libsecret's own headers, linked: only for the test that checks
        // CLibSecret's declarations (LibSecretABIFacts).
        .systemLibrary(
            name: "CLibSecretSystem",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .target(name: "LibSecretABIFacts", dependencies: ["CLibSecretSystem"]),
        .target(name: "Keyring", dependencies: ["CLibSecret", "GObjectOwnership"]),
        // GIO's GSettings (no GTK): the app's settings under the schema in data/.
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // The one way the app owns GObjects and GStreamer objects
        // (OwnedReference) and hands `self` to C callbacks (CallbackContext):
        // on untyped pointers, so every module can use it whichever C
        // umbrella (CAdwaita, CGio, CGStreamer, CAvahi…) it sees GLib through.
        .target(name: "GObjectOwnership", dependencies: ["CGio"]),
        .target(name: "GSettings", dependencies: ["CGio", "GObjectOwnership"]),
        // Avahi (avahi-client with avahi-glib): ListenUp servers on the LAN.
        // Its headers (libavahi-client-dev, libavahi-glib-dev), not linked:
        // opened with dlopen on first use, so a start-up loads none of it
        // before the first frame.
        .target(name: "CAvahi", dependencies: ["CGio"]),
        .target(
            name: "LANDiscovery",
            dependencies: ["CAvahi", "GObjectOwnership", .product(name: "Logging", package: "swift-log")]
        ),
        // GStreamer: the audio engine (playbin, scaletempo, souphttpsrc), opened
        // with dlopen on first play, not linked (start-ups that never play do
        // not load it): our declarations of its ABI and the loader.
        .target(name: "CGStreamer", dependencies: ["CGio"]),
        // GStreamer's own headers, linked: only for the test that checks
        // CGStreamer's declarations (GStreamerABIFacts).
        .systemLibrary(
            name: "CGStreamerSystem",
            pkgConfig: "gstreamer-1.0",
            providers: [.apt(["libgstreamer1.0-dev"])]
        ),
        .target(name: "GStreamerABIFacts", dependencies: ["CGStreamerSystem"]),
        // The GStreamer engine behind the core's PlaybackEngine: no GTK.
        .target(
            name: "Playback",
            dependencies: ["CGStreamer", "GObjectOwnership", "ListenUpCore", .product(name: "Logging", package: "swift-log")]
        ),
        // The desktop's media controls: MPRIS over GDBus, on a thread of its own.
        .target(
            name: "MPRIS",
            dependencies: ["CGio", "GObjectOwnership", "ListenUpCore", .product(name: "Logging", package: "swift-log")]
        ),
        // The kRPC wire contract of today's ListenUp server (v0.9, Kotlin): the
        // kRPC envelope, AppResult / RpcEvent / AppError, sync frames and the DTOs
        // (shared/contract/listenup-krpc-v0.9.md). Pure data, like ListenUpAPI.
        .target(name: "ListenUpKRPC", dependencies: ["JSONToolkit"]),
        // A WebSocket client on SwiftNIO (NIOWebSocket; NIOSSL for wss): whole
        // text messages in and out, pongs that echo pings, masking, clean close.
        .target(
            name: "WebSocketTransport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // A kRPC session over one WebSocket: handshake, calls and streams by
        // call id, cancellation, timeouts, a redacted frame log; the session's
        // rules are a pure state machine, the actor around it does the I/O.
        .target(
            name: "KRPCSession",
            dependencies: ["JSONToolkit", "ListenUpKRPC", "WebSocketTransport", .product(name: "Logging", package: "swift-log")]
        ),
        // Models, state machines and the interfaces of the services they use
        // (the server seam, stores, settings): no GTK, no NIO, no SQLite.
        .target(
            name: "ListenUpCore",
            dependencies: [
                "CGettext", "CMalloc", "JSONToolkit", "PairingProtocol", "PNGEncoding",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The live adapters behind ListenUpCore's interfaces (both server
        // clients behind `ServerConnection`, REST v1 in REST/ and kRPC in
        // KRPC/, sharing one SessionRefresher; HTTP through AsyncHTTPClient,
        // the SQLite library cache, the Secret Service, GSettings, Avahi, the
        // pairing host) and the composition root (`Dependencies.live`).
        .target(
            name: "ListenUpLive",
            dependencies: [
                "ListenUpCore", "ListenUpAPI", "Keyring", "GSettings", "LANDiscovery", "Pairing", "Playback", "QRCode",
                "ListenUpKRPC", "KRPCSession", "WebSocketTransport", "ServerSentEvents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // PNG writing with no dependencies (generated covers, QR codes).
        .target(name: "PNGEncoding"),
        // libqrencode: QR symbols for pairing. The core draws and renders them
        // (QRMatrix, QRImage, the QRRenderer actor); this module is the
        // encoder the composition root injects. Its header (libqrencode-dev),
        // not linked: opened with dlopen when pairing first draws a symbol.
        .target(name: "CQREncode"),
        .target(name: "QRCode", dependencies: ["CQREncode", "ListenUpCore"]),
        // The pairing protocol's values and rules, with no I/O: events, state,
        // requests, paired devices, the desktop's status, the rotating codes
        // and the listenup-pair: URI. The core uses these without NIO.
        .target(name: "PairingProtocol"),
        // Pairing a companion device: identity, discovery server (SwiftNIO +
        // NIOSSL), device store, pinned client; re-exports PairingProtocol.
        .target(
            name: "Pairing",
            dependencies: [
                "PairingProtocol", "LANDiscovery", "JSONToolkit", "ServerSentEvents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "listenup-companion",
            dependencies: [
                "Pairing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // bench/pairing: QR render and pairing round-trip figures.
        .executableTarget(
            name: "listenup-pairing-bench",
            dependencies: [
                "ListenUpCore", "Pairing", "QRCode",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        // A ListenUp-compatible server for tests, demos and trying the app.
        .target(
            name: "DemoServer",
            dependencies: [
                "JSONToolkit", "ListenUpAPI", "ListenUpKRPC", "LANDiscovery", "PNGEncoding",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // bench/startup: the Swift floor, the C baseline's window in Swift
        // (CAdwaita and Foundation only), built with the app's flags.
        .executableTarget(
            name: "listenup-startup-floor",
            dependencies: ["CAdwaita"]
        ),
        .executableTarget(
            name: "listenup-demo-server",
            dependencies: [
                "DemoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ListenUpHeadless",
            dependencies: ["JSONToolkit", "ListenUpCore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ListenUpUI",
            dependencies: ["CAdwaita", "GtkBridge", "GObjectOwnership", "ListenUpCore", "PairingProtocol",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "listenup",
            dependencies: [
                "ListenUpCore", "ListenUpLive", "ListenUpHeadless", "ListenUpUI", "GtkBridge", "MPRIS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Loopback servers and log capture for the tests (not shipped).
        .target(
            name: "ListenUpTestSupport",
            dependencies: [
                "ListenUpCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "JSONToolkitTests", dependencies: ["JSONToolkit"]),
        .testTarget(name: "ServerSentEventsTests", dependencies: ["ServerSentEvents"]),
        .testTarget(name: "ListenUpKRPCTests", dependencies: ["JSONToolkit", "ListenUpKRPC"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "KRPCSessionTests",
            dependencies: [
                "KRPCSession", "ListenUpKRPC", "WebSocketTransport", "ListenUpTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WebSocketTransportTests",
            dependencies: [
                "WebSocketTransport", "ListenUpTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "GtkBridgeTests", dependencies: ["GtkBridge", "CAdwaita"]),
        .testTarget(name: "GObjectOwnershipTests", dependencies: ["GObjectOwnership", "CGio"]),
        .testTarget(name: "KeyringTests", dependencies: ["Keyring", "LibSecretABIFacts", "ListenUpTestSupport"]),
        .testTarget(name: "GSettingsTests", dependencies: ["GSettings", "ListenUpTestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "ListenUpCore", "PNGEncoding", "ListenUpTestSupport"]),
        .testTarget(
            name: "PairingTests",
            dependencies: [
                "ListenUpCore", "Pairing", "QRCode", "ListenUpTestSupport", "ServerSentEvents",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "LANDiscoveryTests",
            dependencies: ["LANDiscovery", "ListenUpCore", "ListenUpLive", "ListenUpTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "MPRISTests", dependencies: ["MPRIS", "ListenUpCore", "ListenUpTestSupport",
                                                      .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "PlaybackTests",
            dependencies: [
                "Playback", "CGStreamer", "GStreamerABIFacts", "ListenUpCore", "ListenUpTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "ListenUpAPITests", dependencies: ["JSONToolkit", "ListenUpAPI"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "DemoServerTests",
            dependencies: [
                "DemoServer", "ListenUpAPI", "ListenUpKRPC", "ListenUpCore", "ListenUpLive", "ListenUpTestSupport", "ServerSentEvents",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ListenUpLiveTests",
            dependencies: [
                "ListenUpLive", "ListenUpCore", "ListenUpAPI", "ListenUpTestSupport", "Keyring", "GSettings", "Pairing", "QRCode",
                "ListenUpKRPC", "KRPCSession", "DemoServer", "ServerSentEvents",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ListenUpCoreTests",
            dependencies: [
                "ListenUpCore", "ListenUpAPI", "ListenUpLive", "ListenUpTestSupport", "PairingProtocol", "QRCode", "ServerSentEvents",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // These tests start `listenup` and `listenup-demo-server` as child
        // processes, as the UI and pairing tests start theirs: `swift build
        // --build-tests` and `swift test` build every program. Naming the
        // programs here made this module's compile wait for the app's link,
        // the last step of the build, instead of running beside it.
        .testTarget(name: "ListenUpHeadlessTests",
                    dependencies: ["JSONToolkit", "ListenUpHeadless", "ListenUpCore", "ListenUpLive", "DemoServer",
                                   "ListenUpTestSupport"]),
        .testTarget(
            name: "ListenUpUITests",
            dependencies: [
                "ListenUpUI", "GtkBridge", "CAdwaita", "ListenUpCore", "ListenUpLive", "ListenUpTestSupport", "Pairing", "QRCode",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The programs and the test bundle are linked with the toolchain's own lld
// rather than the system's default (gold): the same program, linked in half
// the time (the six debug links 7.3 s → 3.6 s, the test bundle's 2.6 s →
// 1.2 s, on every build that changes them; docs/performance.md, "Build
// time").
for target in package.targets where target.type == .executable || target.type == .test {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
}
