import Foundation
import Testing
@testable import ListenUpCore

/// tr()/trn() without a catalogue (the English source), and the POSIX
/// locale the numbers and dates follow. Catalogues are checked through the
/// real binary (HeadlessTranslationTests), since LANGUAGE is process-wide.
@Suite("Localization")
struct LocalizationTests {
    @Test func placeholdersAreFilledInOrderAndArgumentsAreNotReScanned() {
        #expect(tr("%@ of %@", "1", "2") == "1 of 2")
        #expect(tr("Connected to %@.", "%@ server") == "Connected to %@ server.")
        #expect(Localization.substitute(["a"], into: "%@ and %@") == "a and %@")
        #expect(Localization.substitute(["a", "b"], into: "100% sure: %@, %%@ and %") == "100% sure: a, %b and %")
        #expect(Localization.substitute(["é"], into: "Café %@ é%@") == "Café é é%@")
    }

    @Test func pluralsPickTheFormForTheCount() {
        #expect(trn("%@ book", "%@ books", count: 1, "1") == "1 book")
        #expect(trn("%@ book", "%@ books", count: 0, "0") == "0 books")
        #expect(trn("%@ book", "%@ books", count: 10_000, "10,000") == "10,000 books")
        #expect(trn("%@ book", "%@ books", count: -3, "-3") == "-3 books")
    }

    @Test func theLocaleComesFromThePOSIXVariables() {
        #expect(Localization.posixLocale(category: "LC_NUMERIC", environment: ["LANG": "de_DE.UTF-8"]).identifier == "de_DE")
        #expect(Localization.posixLocale(category: "LC_NUMERIC", environment: ["LANG": "de_DE.UTF-8", "LC_NUMERIC": "fr_FR.UTF-8"]).identifier == "fr_FR")
        #expect(Localization.posixLocale(category: "LC_NUMERIC", environment: ["LC_ALL": "sr_RS.UTF-8@latin", "LC_NUMERIC": "fr_FR"]).identifier == "sr_RS")
        #expect(Localization.posixLocale(category: "LC_TIME", environment: ["LANG": "C.UTF-8"]).identifier == "en_US")
        #expect(Localization.posixLocale(category: "LC_TIME", environment: [:]).identifier == "en_US")
    }

    @Test func countsAreGroupedTheLocalWay() {
        #expect(10_000.formatted(.number.locale(Locale(identifier: "de_DE"))) == "10.000")
        #expect(10_000.formatted(.number.locale(Locale(identifier: "en_US"))) == "10,000")
        #expect(10_000.formatted(.number.locale(Locale(identifier: "fr_FR"))).unicodeScalars.filter(\.properties.isWhitespace).count == 1)
    }
}
