import CAdwaita

/// Anything that is, at bottom, a pointer to a GObject instance.
///
/// GTK types with public instance structs (`GtkWidget`, `GtkWindow`, `GtkButton`)
/// import as `UnsafeMutablePointer<T>`; final types (`GtkLabel`, `GtkPicture`,
/// `GdkTexture`) import as `OpaquePointer`. Both conform, so the casts below read
/// the same at every call site: `label.widget`, `button.object`, `entry.opaque`.
public protocol GPointer {
    /// The untyped address of the instance.
    var rawPointer: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GPointer {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GPointer {
    public var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer: GPointer {
    public var rawPointer: UnsafeMutableRawPointer { self }
}

extension GPointer {
    /// The instance as a `GtkWidget *`. Only meaningful for widget instances.
    public var widget: UnsafeMutablePointer<GtkWidget> { rawPointer.assumingMemoryBound(to: GtkWidget.self) }
    /// The instance as a `GObject *`.
    public var object: UnsafeMutablePointer<GObject> { rawPointer.assumingMemoryBound(to: GObject.self) }
    /// The instance as an `OpaquePointer`, for functions taking final GTK types.
    public var opaque: OpaquePointer { OpaquePointer(rawPointer) }
    /// The instance as a pointer to a C struct type `T` (`GtkWindow`, `GtkBox`, …).
    public func cast<T>(to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        rawPointer.assumingMemoryBound(to: T.self)
    }
}

/// The result of a GTK or GLib constructor, unwrapped: constructors never
/// return NULL (GLib aborts on allocation failure), so this traps only on a
/// broken library. Spelled out so no call site needs `!`.
///
/// It changes no ownership: a new widget stays floating until a parent (or
/// a ``GObjectRef`` made with `init(taking:)`) sinks it, and any other new
/// object is the caller's reference, to be handed to a ``GObjectRef``.
/// - Parameter pointer: what `gtk_*_new()` returned.
public func newObject<T>(_ pointer: T?, file: StaticString = #fileID, line: UInt = #line) -> T {
    guard let pointer else { fatalError("A GTK constructor returned NULL", file: file, line: line) }
    return pointer
}
