import Foundation
import Testing
@testable import Pairing

@Suite struct PairingIdentityTests {
    @Test func isCreatedOnceWithPrivateFilesAndReloaded() throws {
        let temp = try TempDirectory()
        let storage = temp.storage()
        let first = try PairingIdentity.loadOrCreate(in: storage)
        let again = try PairingIdentity.loadOrCreate(in: storage)
        #expect(first.fingerprint == again.fingerprint)
        #expect(first.certificateDER == again.certificateDER)
        #expect(first.fingerprint.count == 32)
        func mode(_ path: String) throws -> Int {
            ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(storage.directory.path) == 0o700)
        #expect(try mode(storage.url("pairing-key.pem").path) == 0o600)
        #expect(try mode(storage.url("pairing-cert.pem").path) == 0o600)
        #expect(try PairingIdentity.create().fingerprint != first.fingerprint)
    }

    /// The documented openssl pipeline gives the same pin as the app.
    @Test func fingerprintMatchesTheOpenSSLRecipe() async throws {
        let temp = try TempDirectory()
        let storage = temp.storage()
        let identity = try PairingIdentity.loadOrCreate(in: storage)
        let certificate = storage.url("pairing-cert.pem").path
        let (status, output) = try await run(["sh", "-c",
            "openssl x509 -in '\(certificate)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == identity.fingerprintBase64)
        // And the base64url → base64 conversion the document gives.
        let (_, converted) = try await run(["sh", "-c",
            "printf '%s' '\(identity.fingerprintBase64URL)' | tr '_-' '/+' | awk '{ while (length($0) % 4) $0 = $0 \"=\"; print }'"])
        #expect(converted.trimmingCharacters(in: .whitespacesAndNewlines) == identity.fingerprintBase64)
    }

    @Test func aCorruptIdentityIsNotReplacedSilently() throws {
        let temp = try TempDirectory()
        let storage = temp.storage()
        _ = try PairingIdentity.loadOrCreate(in: storage)
        try storage.write(Data("garbage".utf8), to: "pairing-cert.pem")
        #expect(throws: PairingError.self) { try PairingIdentity.loadOrCreate(in: storage) }
    }
}
