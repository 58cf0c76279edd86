import CAdwaita
import Foundation

/// GTK's renderer for this machine, decided before GTK starts.
///
/// GTK 4 draws with OpenGL by default. On a machine without a usable GPU
/// (a virtual machine, a remote or headless session, a sandbox without
/// `/dev/dri`) Mesa then runs GL on the CPU (llvmpipe): every frame goes
/// through a software GL pipeline, several times slower than GTK's own
/// cairo renderer, and Mesa loads LLVM for it (about 60 MiB resident, even
/// when only the GL context is probed). In that case the app asks GTK for
/// cairo and keeps GDK from opening GL at all, as Xpra and Qubes do for the
/// GTK apps they host.
///
/// A renderer the user chose (`GSK_RENDERER`) always stands.
public struct RendererChoice: Equatable, Sendable {
    /// Environment variables to set before GTK reads them; empty when GTK's
    /// own choice stands.
    public let settings: [String: String]
    /// Why software rendering was chosen, for the log; nil when it was not.
    public let reason: String?

    /// GTK keeps its own choice.
    public static let gtkDefault = RendererChoice(settings: [:], reason: nil)

    /// The choice for a process started with `environment` on a machine
    /// whose `/dev/dri` holds `renderNodes` (`renderD128`, …), under GTK 4
    /// minor version `gtkMinorVersion`.
    public static func decide(environment: [String: String], renderNodes: [String], gtkMinorVersion: Int) -> RendererChoice {
        if let chosen = environment["GSK_RENDERER"], !chosen.isEmpty { return .gtkDefault }
        let reason: String
        if ["1", "true"].contains(environment["LIBGL_ALWAYS_SOFTWARE"]?.lowercased()) {
            reason = "LIBGL_ALWAYS_SOFTWARE is set"
        } else if let driver = environment["GALLIUM_DRIVER"], ["llvmpipe", "softpipe"].contains(driver) {
            reason = "GALLIUM_DRIVER is \(driver)"
        } else if !renderNodes.contains(where: { $0.hasPrefix("renderD") }) {
            reason = "no GPU render node in /dev/dri"
        } else {
            return .gtkDefault
        }
        // GTK 4.16 moved "don't use GL" from GDK_DEBUG=gl-disable to GDK_DISABLE=gl.
        let (name, flag) = gtkMinorVersion >= 16 ? ("GDK_DISABLE", "gl") : ("GDK_DEBUG", "gl-disable")
        let existing = environment[name].map { $0.split(separator: ",").map(String.init) } ?? []
        let flags = existing.contains(flag) ? existing : existing + [flag]
        return RendererChoice(settings: ["GSK_RENDERER": "cairo", name: flags.joined(separator: ",")], reason: reason)
    }

    /// The choice for this process and machine.
    public static func forThisMachine(environment: [String: String]) -> RendererChoice {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return decide(environment: environment, renderNodes: nodes, gtkMinorVersion: Int(gtk_get_minor_version()))
    }

    /// Sets `settings` in the process environment. Call it before GTK starts
    /// and before any other thread runs: `setenv` races with `getenv`.
    public func apply() {
        for (name, value) in orderedSettings {
            setenv(name, value, 1)
        }
    }

    /// ``settings`` by name, for a stable order.
    public var orderedSettings: [(name: String, value: String)] {
        settings.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }
}
