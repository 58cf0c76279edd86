import Foundation

extension ScreenKey where Model == InviteModel {
    /// Use an invite.
    public static var invite: Self { Self(.invite) }
}

extension RouteNode {
    /// Use an invite: from server setup or sign in (*Use an Invite…*), or
    /// an invite link the app was asked to open.
    public static let invite = RouteNode(
        .invite,
        serves: { state in
            if case .acceptingInvite = state { true } else { false }
        },
        model: { context in
            let start: InviteStart = if case .acceptingInvite(let start) = context.authState { start } else { InviteStart() }
            return InviteModel(start: start, client: .live(context.dependencies), send: context.send)
        },
        previews: InviteModel.previews
    )
}

extension InviteModel {
    /// The invite a preview shows (a kRPC server: the name can be chosen).
    nonisolated static let previewServer = VerifiedServer(url: URL(string: "https://listenup.example.com") ?? URL(fileURLWithPath: "/"),
                                                          instanceID: "lib-preview", name: "Lovelace Library", setupRequired: false,
                                                          generation: .krpc)
    nonisolated static let previewInvite = InvitePreview(displayName: "Ada Lovelace", email: "ada@example.com",
                                                         invitedByName: "Charles Babbage", serverName: "Lovelace Library")
    nonisolated static let previewLink = "https://link.listenup.audio/o?t=invite&server=https%3A%2F%2Flistenup.example.com&code=Jc4RcX2bQ4qhX2tI0b7Ypw"

    nonisolated static let previews: [PreviewState<InviteModel>] = {
        let (link, server, invite) = (InviteModel.previewLink, InviteModel.previewServer, InviteModel.previewInvite)
        func unusable(_ refusal: InviteRefusal) -> InvitePreview {
            var used = invite
            used.problem = refusal
            return used
        }
        var goServer = server
        goServer.generation = .restV1
        let unreachable = ServerVerificationError.unreachable
        return [
            .init("empty") { _ in },
            // The real path: the link is refused before any server is asked.
            .init("badLink") { $0.send(.linkChanged("https://example.com/party")); $0.send(.lookUp) },
            .init("checking") { $0.showForPreview(link: link, server: nil, preview: nil, status: .checking) },
            .init("preview") { $0.showForPreview(link: link, server: server, preview: invite, status: .ready) },
            .init("previewGo") {
                $0.showForPreview(link: "https://listenup.example.com/join/Jc4RcX2bQ4qhX2tI0b7Ypw", server: goServer, preview: invite,
                                  status: .ready, password: 12)
            },
            .init("claiming") { $0.showForPreview(link: link, server: server, preview: invite, status: .claiming, password: 12) },
            .init("weakPassword") {
                $0.showForPreview(link: link, server: server, preview: invite,
                                  status: .claimFailed(code: "rejected", message: tr("Choose a password of 8 to 1024 characters.")),
                                  password: 12)
            },
            .init("expired") { $0.showForPreview(link: link, server: server, preview: unusable(.expired), status: .unusable(.expired)) },
            .init("claimed") {
                $0.showForPreview(link: link, server: server, preview: unusable(.alreadyClaimed), status: .unusable(.alreadyClaimed))
            },
            .init("notFound") { $0.showForPreview(link: link, server: server, preview: nil, status: .unusable(.notFound)) },
            .init("unreachable") {
                $0.showForPreview(link: link, server: nil, preview: nil,
                                  status: .failed(code: unreachable.code, message: unreachable.userMessage(for: server.url)))
            },
        ]
    }()
}
