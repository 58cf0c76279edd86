import CAvahi

/// Avahi's functions, from the libraries CAvahi opens the first time they
/// are asked for (on a browse's or an announcement's own thread).
/// Thread-safe.
enum AvahiLibrary {
    /// The functions, or, when Avahi's libraries are not installed, a
    /// sentence saying which one is missing.
    static func functions() -> Result<ListenUpAvahi, Missing> {
        var failure: UnsafePointer<CChar>?
        guard let table = listenup_avahi(&failure) else {
            return .failure(Missing(reason: failure.map { String(cString: $0) } ?? "Avahi could not be loaded"))
        }
        return .success(table.pointee)
    }

    struct Missing: Error {
        let reason: String
    }
}

extension ListenUpAvahi {
    /// Avahi's sentence for an error code (`avahi_strerror`).
    func message(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "Avahi error \(code)"
    }
}
