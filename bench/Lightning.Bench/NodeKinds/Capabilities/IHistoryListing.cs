namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>A node that lists a history written into its database, so the harness can check it sees it.</summary>
internal interface IHistoryListing : INodeFeature
{
    /// <summary>
    /// Once restarted with a history, asks the node by its own listing for the history's last row (<paramref name="check"/>);
    /// a history it does not see throws, so it is never measured.
    /// </summary>
    Task ConfirmHistoryAsync(HistoryCheck check, CancellationToken ct = default);
}
