// swift-tools-version:6.0
//
// ListenUp for Linux. Modules are split by weight (see docs/architecture.md):
//   CAdwaita → GtkBridge → ListenUpUI → listenup
//   ListenUpCore (no GTK) ← ListenUpHeadless (no GTK) ← listenup
import PackageDescription

let package = Package(
    name: "ListenUp",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "listenup", targets: ["listenup"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
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
            dependencies: ["CAdwaita", .product(name: "Logging", package: "swift-log")]
        ),
        // gettext's header (the functions are in glibc).
        .systemLibrary(name: "CGettext"),
        .target(
            name: "ListenUpCore",
            dependencies: ["CGettext", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ListenUpHeadless",
            dependencies: ["ListenUpCore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ListenUpUI",
            dependencies: ["CAdwaita", "GtkBridge", "ListenUpCore", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "listenup",
            dependencies: [
                "ListenUpCore", "ListenUpHeadless", "ListenUpUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "GtkBridgeTests", dependencies: ["GtkBridge", "CAdwaita"]),
        .testTarget(name: "ListenUpCoreTests", dependencies: ["ListenUpCore"]),
        .testTarget(name: "ListenUpHeadlessTests", dependencies: ["ListenUpHeadless", "listenup"]),
        .testTarget(name: "ListenUpUITests", dependencies: ["ListenUpUI", "GtkBridge", "CAdwaita", "ListenUpCore"]),
    ],
    swiftLanguageModes: [.v6]
)
