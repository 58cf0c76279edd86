import CLibSecret
import LibSecretABIFacts
import Testing

/// The app declares the five libsecret functions it calls itself (it opens
/// the library on first use rather than linking it: CLibSecret.h). The
/// constants it passes, and the width of the flags argument, must be what
/// the installed libsecret headers say; the calls themselves are exercised
/// against a real keyring by KeyringTests.
@Suite("libsecret's ABI as CLibSecret declares it")
struct LibSecretABITests {
    @Test func theConstantsAreLibsecrets() {
        #expect(listenup_secret_abi_fact("SECRET_SCHEMA_NONE") == Int64(LISTENUP_SECRET_SCHEMA_NONE))
        #expect(listenup_secret_abi_fact("SECRET_SCHEMA_ATTRIBUTE_STRING") == Int64(LISTENUP_SECRET_SCHEMA_ATTRIBUTE_STRING))
    }

    @Test func theFlagsArgumentIsAnInt() {
        #expect(listenup_secret_abi_fact("sizeof(SecretSchemaFlags)") == listenup_secret_abi_fact("sizeof(int)"))
    }

    @Test func anUnknownNameHasNoFact() {
        #expect(listenup_secret_abi_fact("SECRET_NO_SUCH_THING") == -1)
    }
}
