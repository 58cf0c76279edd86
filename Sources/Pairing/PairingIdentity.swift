import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The desktop's long-lived TLS identity for pairing: a P-256 key and a
/// self-signed certificate, created on first use and reloaded after
/// (`pairing-key.pem`, `pairing-cert.pem`, mode 0600).
///
/// The fingerprint companions pin is SHA-256 over the certificate's
/// SubjectPublicKeyInfo DER (the same bytes curl's `--pinnedpubkey sha256//…`
/// hashes). Immutable, `Sendable`.
public struct PairingIdentity: Sendable {
    /// The certificate, DER.
    public let certificateDER: [UInt8]
    /// The private key, PKCS#8 PEM (never logged).
    let privateKeyPEM: String
    /// SHA-256 of the certificate's SubjectPublicKeyInfo DER.
    public let fingerprint: [UInt8]

    /// The fingerprint as standard base64, for curl: `--pinnedpubkey "sha256//<this>"`.
    public var fingerprintBase64: String { Data(fingerprint).base64EncodedString() }
    /// The fingerprint as unpadded base64url, as in the pairing URI's `fp`.
    public var fingerprintBase64URL: String { Base64URL.encode(fingerprint) }

    static let keyFile = "pairing-key.pem"
    static let certificateFile = "pairing-cert.pem"

    /// Loads the identity from `storage`, or creates and saves one.
    /// - Throws: ``PairingError/storage(_:)`` or ``PairingError/corruptIdentity(_:)``.
    public static func loadOrCreate(in storage: PairingStorage) throws -> PairingIdentity {
        if let keyData = try storage.read(keyFile), let certificateData = try storage.read(certificateFile) {
            do {
                let keyPEM = String(decoding: keyData, as: UTF8.self)
                _ = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
                let certificate = try Certificate(pemEncoded: String(decoding: certificateData, as: UTF8.self))
                return try PairingIdentity(certificate: certificate, privateKeyPEM: keyPEM)
            } catch {
                throw PairingError.corruptIdentity(String(describing: type(of: error)))
            }
        }
        let identity = try create()
        let certificate = try Certificate(derEncoded: identity.certificateDER)
        try storage.write(Data(identity.privateKeyPEM.utf8), to: keyFile)
        try storage.write(Data(try certificate.serializeAsPEM().pemString.utf8), to: certificateFile)
        return identity
    }

    /// A new identity, not saved.
    public static func create(name: String = "ListenUp pairing", now: Date = Date()) throws -> PairingIdentity {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-24 * 3600),
            notValidAfter: now.addingTimeInterval(20 * 365 * 24 * 3600),
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return try PairingIdentity(certificate: certificate, privateKeyPEM: key.pemRepresentation)
    }

    private init(certificate: Certificate, privateKeyPEM: String) throws {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        certificateDER = serializer.serializedBytes
        self.privateKeyPEM = privateKeyPEM
        // The full SubjectPublicKeyInfo DER, read back the way a TLS peer sees it
        // (swift-certificates' `subjectPublicKeyInfoBytes` is only the key bits).
        fingerprint = try Self.fingerprint(of: NIOSSLCertificate(bytes: certificateDER, format: .der))
    }

    /// SHA-256 of SubjectPublicKeyInfo DER bytes.
    public static func fingerprint(ofSPKI spki: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: spki)) }

    /// The fingerprint of a certificate a peer presented.
    public static func fingerprint(of certificate: NIOSSLCertificate) throws -> [UInt8] {
        fingerprint(ofSPKI: try certificate.extractPublicKey().toSPKIBytes())
    }

    /// A TLS 1.2+ server configuration presenting this identity.
    public func serverTLSConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: certificateDER, format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
