import Testing
@testable import ListenUpKRPC

/// The server's `init { require }` rules, checked before sending (§1.5, §3.2).
@Suite("Request validation")
struct RequestValidationTests {
    @Test func passwordLength() throws {
        #expect(throws: RequestValidationError.passwordTooShort) { try LoginRequest(email: "a", password: "1234567").validate() }
        try LoginRequest(email: "a", password: "12345678").validate()
        try LoginRequest(email: "a", password: String(repeating: "x", count: 1024)).validate()
        #expect(throws: RequestValidationError.passwordTooLong) {
            try LoginRequest(email: "a", password: String(repeating: "x", count: 1025)).validate()
        }
        // Kotlin counts UTF-16 code units: four emoji are eight.
        try LoginRequest(email: "a", password: "🎧🎧🎧🎧").validate()
        #expect(RequestValidationError.passwordTooShort.weakPasswordReason == .tooShort)
        #expect(RequestValidationError.blankDisplayName.weakPasswordReason == nil)
    }

    @Test func displayNameMustNotBeBlank() throws {
        #expect(throws: RequestValidationError.blankDisplayName) {
            try RegisterRequest(email: "a", password: "12345678", displayName: " \t\u{2003}").validate()
        }
        try RegisterRequest(email: "a", password: "12345678", displayName: " A ").validate()
        #expect(throws: RequestValidationError.passwordTooShort) {
            try RegisterRequest(email: "a", password: "1", displayName: "").validate()
        }
    }

    @Test func deviceInfoFieldsAtMost128() throws {
        try DeviceInfo(deviceName: String(repeating: "d", count: 128)).validate()
        #expect(throws: RequestValidationError.deviceInfoFieldTooLong(field: "deviceName")) {
            try LoginRequest(email: "a", password: "12345678",
                             deviceInfo: DeviceInfo(deviceName: String(repeating: "d", count: 129))).validate()
        }
        #expect(RequestValidationError.deviceInfoFieldTooLong(field: "platform").description
            == "deviceInfo.platform longer than 128 characters")
    }

    @Test func textIsCutToUTF16CodeUnitsBetweenWholeCharacters() throws {
        // Fits: untouched.
        #expect(RequestLimits.cut("ada-laptop", toUTF16: 128) == "ada-laptop")
        #expect(RequestLimits.cut(String(repeating: "d", count: 129), toUTF16: 128) == String(repeating: "d", count: 128))
        // 1 + 2 × 100 code units: 63 emoji fit beside the "a" (127), the 64th would split its surrogate pair.
        let astral = "a" + String(repeating: "🎧", count: 100)
        let cut = RequestLimits.cut(astral, toUTF16: 128)
        #expect(cut == "a" + String(repeating: "🎧", count: 63))
        #expect(cut.utf16.count == 127)
        #expect(String(decoding: Array(cut.utf16), as: UTF16.self) == cut, "no lone surrogate")
        try DeviceInfo(deviceName: cut).validate()
        // A grapheme cluster (a family: 11 code units) is kept whole or dropped whole.
        let family = "👩‍👩‍👧‍👦"
        #expect(family.utf16.count == 11)
        #expect(RequestLimits.cut(String(repeating: "x", count: 120) + family, toUTF16: 128) == String(repeating: "x", count: 120))
        #expect(RequestLimits.cut(String(repeating: "x", count: 117) + family, toUTF16: 128) == String(repeating: "x", count: 117) + family)
    }

    @Test func bookIdsMustNotBeBlank() throws {
        #expect(throws: RequestValidationError.blankBookId) { try BookIdArguments(bookId: "  ").validate() }
        #expect(throws: RequestValidationError.blankBookId) { try PrepareArguments(bookId: "").validate() }
        try PrepareArguments(bookId: "b").validate()
    }
}
