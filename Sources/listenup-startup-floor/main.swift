import CAdwaita
import Foundation

// The Swift start-up floor of bench/startup: the C baseline's window (an
// AdwApplicationWindow, 900×680, holding a header bar and a label) written
// in Swift, built by SwiftPM with the app's toolchain and flags, and
// importing Foundation as the app does. What the app spends beyond this is
// the app's own; what this spends beyond the C window is the floor of any
// Swift GTK program built this way. With LISTENUP_EXIT_AFTER_FIRST_FRAME=1
// it quits right after its first frame, as the app and the C window do.

/// The window, once activated (GTK's main thread only).
nonisolated(unsafe) var window: UnsafeMutablePointer<GtkWidget>?

private let quitAfterFirstFrame: GSourceFunc = { application in
    if let window { gtk_window_destroy(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)) }
    g_application_quit(application?.assumingMemoryBound(to: GApplication.self))
    return 0 // G_SOURCE_REMOVE
}

private let afterPaint: @convention(c) (OpaquePointer?, gpointer?) -> Void = { clock, application in
    g_signal_handlers_disconnect_matched(UnsafeMutableRawPointer(clock), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, application)
    // Let the frame reach the screen, then quit (as the app does).
    g_timeout_add(0, quitAfterFirstFrame, application)
}

private let realize: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { widget, application in
    guard let clock = gtk_widget_get_frame_clock(widget) else { return }
    g_signal_connect_data(UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(afterPaint, to: GCallback.self),
                          application, nil, GConnectFlags(0))
}

private let activate: @convention(c) (UnsafeMutablePointer<GApplication>?, gpointer?) -> Void = { application, _ in
    if let window {
        gtk_window_present(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
        return
    }
    let made = adw_application_window_new(UnsafeMutableRawPointer(application)?.assumingMemoryBound(to: GtkApplication.self))
    window = made
    let asWindow = UnsafeMutableRawPointer(made)?.assumingMemoryBound(to: GtkWindow.self)
    gtk_window_set_title(asWindow, "Swift floor")
    gtk_window_set_default_size(asWindow, 900, 680)
    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
    let asBox = UnsafeMutableRawPointer(box)?.assumingMemoryBound(to: GtkBox.self)
    gtk_box_append(asBox, adw_header_bar_new())
    let label = gtk_label_new("Hello from the Swift floor")
    gtk_widget_set_vexpand(label, 1)
    gtk_box_append(asBox, label)
    adw_application_window_set_content(UnsafeMutableRawPointer(made)?.assumingMemoryBound(to: AdwApplicationWindow.self), box)
    if ProcessInfo.processInfo.environment["LISTENUP_EXIT_AFTER_FIRST_FRAME"] == "1" {
        g_signal_connect_data(UnsafeMutableRawPointer(made), "realize", unsafeBitCast(realize, to: GCallback.self),
                              UnsafeMutableRawPointer(application), nil, GConnectFlags(0))
    }
    gtk_window_present(asWindow)
}

let application = adw_application_new("io.github.listenup.BenchSwiftFloor", G_APPLICATION_NON_UNIQUE)
let asApplication = UnsafeMutableRawPointer(application)?.assumingMemoryBound(to: GApplication.self)
g_signal_connect_data(UnsafeMutableRawPointer(application), "activate", unsafeBitCast(activate, to: GCallback.self), nil, nil,
                      GConnectFlags(0))
var arguments: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments.first ?? "listenup-startup-floor"), nil]
let status = g_application_run(asApplication, 1, &arguments)
free(arguments[0])
// The application is not released: the process ends here.
exit(status)
