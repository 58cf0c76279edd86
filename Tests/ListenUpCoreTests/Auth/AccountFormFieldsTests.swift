import Testing
@testable import ListenUpCore

/// The fields Create admin, Create Account and Reset Password share.
@Suite("Account form fields")
struct AccountFormFieldsTests {
    enum Field: Hashable, Sendable { case name, password, confirmation }

    @Test func thePasswordIsTouchedAsItIsTypedAndOtherFieldsWhenLeft() {
        var form = AccountFormFields<Field>(password: .password, confirmation: .confirmation)
        let first = form.set(.name, to: "Ada")
        let again = form.set(.name, to: "Ada")
        #expect(first && !again, "writing the same text back is no edit")
        #expect(form.touched.isEmpty)
        form.set(.password, to: "short")
        #expect(form.touched == [.password])
        #expect(form.visible(form.passwordProblem, for: .password) == "Use at least 8 characters.")
        #expect(form.visible("Enter your name.", for: .name) == nil, "not left yet")
        form.touch(.name)
        #expect(form.visible("Enter your name.", for: .name) == "Enter your name.")
        form.untouch()
        #expect(form.touched.isEmpty)
    }

    @Test func theConfirmationMustRepeatThePassword() {
        var form = AccountFormFields<Field>(password: .password, confirmation: .confirmation)
        form.set(.password, to: "analytical")
        #expect(!form.confirmationMatches && form.confirmationProblem == "The passwords don't match.")
        form.set(.confirmation, to: "analytical")
        #expect(form.confirmationMatches && form.confirmationProblem == nil && form.passwordProblem == nil)
        #expect(form.passwordLength == 10)
        var single = AccountFormFields<Field>(password: .password)
        single.set(.password, to: "analytical")
        #expect(single.confirmationMatches, "a form without a confirmation")
    }

    @Test func thePasswordIsForgottenAndNeverPrinted() {
        var form = AccountFormFields<Field>(password: .password, confirmation: .confirmation)
        form.set(.name, to: "  Ada  ")
        form.set(.password, to: "analytical-engine")
        form.set(.confirmation, to: "analytical-engine")
        #expect(form.trimmed(.name) == "Ada")
        for text in ["\(form)", String(describing: form), String(reflecting: form)] {
            #expect(!text.contains("analytical") && !text.contains("Ada"), "\(text)")
        }
        form.forgetPassword()
        #expect(form[.password].isEmpty && form[.confirmation].isEmpty && form.passwordLength == 0)
        #expect(form[.name] == "  Ada  ")
    }
}
