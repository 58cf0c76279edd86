import GtkBridge
import ListenUpCore

/// What the pages of the forms that make an account share (Create admin,
/// Create Account): their fields, the Create button and the failure row
/// follow an ``AccountFormModel`` the same way; each page lays them out and
/// names them itself.
@MainActor
enum AccountFormControls {
    /// Each field sends its text to the model; Enter in a field shows its
    /// error and moves to the next field, or, in the last, creates; so does
    /// the Create button.
    static func connect<Model: AccountFormModel>(_ fields: [Model.Field: GlassTextField], in order: [Model.Field],
                                                 createButton: ListenUpButton, to model: Model,
                                                 changed: @escaping @MainActor (Model, Model.Field, String) -> Void,
                                                 create: @escaping @MainActor (Model) -> Void) {
        for (index, field) in order.enumerated() {
            guard let textField = fields[field] else { continue }
            textField.onChange { [weak model] in if let model { changed(model, field, $0) } }
            let next = index + 1 < order.count ? fields[order[index + 1]] : nil
            textField.onActivate { [weak model] in
                guard let model else { return }
                model.touch(field)
                if let next { next.grabFocus() } else { create(model) }
            }
        }
        createButton.onClick { [weak model] in if let model { create(model) } }
    }

    /// The errors under the fields, the busy state and the failure, as the
    /// model has them now.
    static func render<Model: AccountFormModel>(_ model: Model, fields: [Model.Field: GlassTextField], createButton: ListenUpButton,
                                                noticeRow: NoticeRow) {
        for (field, textField) in fields {
            textField.errorText = model.visibleError(for: field)
        }
        let busy = model.status == .creating
        createButton.setLoading(busy)
        for textField in fields.values { Widget(textField.entry).isSensitive = !busy }
        noticeRow.show(model.errorMessage, isError: true)
        createButton.widget.setAccessibleDescription(model.errorMessage)
    }
}
