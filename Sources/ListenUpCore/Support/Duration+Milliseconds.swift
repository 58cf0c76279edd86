extension Duration {
    /// The duration in milliseconds, for logs and measurements.
    public var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}
