import Foundation

/// Test support, not part of the app.
///
/// A freshly made self-signed certificate for 127.0.0.1 and localhost, valid
/// one day: what a server behind a home-made TLS setup presents, and what a
/// client must refuse unless told to trust it.
public struct TestCertificate: Sendable {
    /// The certificate, PEM.
    public var certificatePEM: String
    /// Its private key, PEM (unencrypted).
    public var privateKeyPEM: String

    /// Makes one with the openssl command (through ``ChildProcess``), on a
    /// plain thread rather than the cooperative pool.
    public static func make() async throws -> TestCertificate {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try makeNow() }) }
        }
    }

    /// Makes one now, blocking the calling thread while openssl runs.
    public static func makeNow() throws -> TestCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listenup-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem")
        let certificate = directory.appendingPathComponent("cert.pem")
        let openssl = try ToolProcess(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                       "-nodes", "-keyout", key.path, "-out", certificate.path, "-days", "1", "-subj", "/CN=localhost",
                                       "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        guard openssl.finish().status == 0 else { throw CocoaError(.fileWriteUnknown) }
        return TestCertificate(certificatePEM: try String(contentsOf: certificate, encoding: .utf8),
                               privateKeyPEM: try String(contentsOf: key, encoding: .utf8))
    }

    /// As the `tls` argument of ``ScriptedWebSocketServer/start(requiring:rejectionStatus:tls:refusing:http:onConnection:)``.
    public var pem: (certificatePEM: String, privateKeyPEM: String) { (certificatePEM, privateKeyPEM) }
}
