/// The registered screens. The only place that knows which screens exist is
/// the list of registrations handed to it.
public struct RouteRegistry: Sendable {
    /// The nodes, in registration order (earlier wins when two serve a state).
    public private(set) var nodes: [RouteNode] = []

    public init(_ nodes: [RouteNode] = []) {
        for node in nodes { register(node) }
    }

    /// Adds a node. A second node for the same route replaces the first.
    public mutating func register(_ node: RouteNode) {
        nodes.removeAll { $0.route == node.route }
        nodes.append(node)
    }

    /// The node that serves `state`, if any.
    public func node(serving state: AuthState) -> RouteNode? {
        nodes.first { $0.serves(state) }
    }

    /// The node for `route`, if registered.
    public func node(for route: Route) -> RouteNode? {
        nodes.first { $0.route == route }
    }
}
