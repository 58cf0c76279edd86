import Foundation
import ListenUpTestSupport
import Testing

/// The real binary speaks the user's language: `LANGUAGE` picks the
/// catalogue compiled from po/, numbers follow `LANG`.
@Suite("Headless translations (child process)", .serialized)
struct HeadlessTranslationTests {
    /// A bad address answered in `language`.
    func message(for language: String) async throws -> String? {
        let locale = try CompiledTranslations.directory.get()
        // C.UTF-8 is on every glibc system; gettext honours LANGUAGE under any
        // locale but "C"/"POSIX".
        let app = try HeadlessProcess(environment: ["LANGUAGE": language, "LANG": "C.UTF-8", "LC_ALL": "",
                                                    "LISTENUP_LOCALE_DIR": locale])
        _ = await app.waitForLine { $0["event"] as? String == "state" && $0["route"] as? String == "serverSetup" }
        app.send(#"{"action":"connect","url":"ftp://books.example.org"}"#)
        let line = await app.waitForLine { (($0["state"] as? [String: Any])?["message"] as? String)?.contains("ftp") == true }
        app.closeInput()
        _ = await app.waitForExit()
        return (line?["state"] as? [String: Any])?["message"] as? String
    }

    @Test func germanAndFrenchComeFromTheirCatalogues() async throws {
        #expect(try await message(for: "de") == "„ftp://“ wird nicht unterstützt. Verwenden Sie eine Adresse, die mit http:// oder https:// beginnt.")
        let french = try #require(try await message(for: "fr"))
        #expect(french.contains("n’est pas pris en charge") || french.contains("n'est pas pris en charge"), "\(french)")
        #expect(try await message(for: "en") == "“ftp://” isn't supported. Use an address starting with http:// or https://.")
    }
}
