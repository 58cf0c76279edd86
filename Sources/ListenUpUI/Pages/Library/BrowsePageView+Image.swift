import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// A page's picture: a person's photo in an `AdwAvatar` (their initials
/// until it arrives, and when there is none or it cannot be had), a
/// series' cover once it has arrived (nothing before). Read through
/// ``BrowsePageView/loadImage`` (the session's ``BrowseImageLoader``: the
/// cache first, offline too), decoded off the main thread, and read again
/// only when the server names another image (a new `imagePath`).
extension BrowsePageView {
    /// The side of a decoded picture, in pixels (twice the avatar's, for HiDPI).
    static let imagePixels = 320

    var avatar: Avatar { ui.child("avatar") }
    /// The series cover's frame, and its picture.
    var cover: Overlay { ui.child("cover") }
    var coverPicture: Picture { ui.child("cover-picture") }

    /// Shows `contents`' picture, reading it when it names another one.
    func showImage(_ contents: BrowsePageContents) {
        let avatar = avatar, cover = cover, coverPicture = coverPicture
        avatar.isVisible = contents.kind == .contributor
        if contents.kind == .contributor {
            avatar.text = contents.name
            if !avatar.hasCustomImage { avatar.setAccessibleLabel(contents.name) }
        }
        guard contents.imagePath != image.path else { return }
        image.task?.cancel()
        image = (contents.imagePath, nil)
        avatar.clearCustomImage()
        avatar.setAccessibleLabel(contents.name)
        coverPicture.clearPaintable()
        cover.isVisible = false
        guard contents.imagePath != nil, let loadImage else { return }
        image.task = Task { @MainActor [weak self] in
            guard let data = await loadImage(contents),
                  let texture = await CoverTexture.decode(data.bytes, size: Self.imagePixels),
                  !Task.isCancelled, let self, self.image.path == contents.imagePath else { return }
            self.showImage(texture, of: contents)
        }
    }

    private func showImage(_ texture: CoverTexture, of contents: BrowsePageContents) {
        switch contents.kind {
        case .contributor:
            avatar.setCustomImage(texture.texture)
            // TRANSLATORS: a person's photo on their page; %@ is their name.
            avatar.setAccessibleLabel(tr("Photo of %@", contents.name))
        case .series:
            coverPicture.setPaintable(texture.texture)
            // TRANSLATORS: a series' cover on its page; %@ is the series' name.
            coverPicture.setAccessibleLabel(tr("Cover of %@", contents.name))
            cover.isVisible = true
        default:
            break
        }
    }
}
