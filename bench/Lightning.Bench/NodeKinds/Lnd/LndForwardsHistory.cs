namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// An LND router's history of forwards, on its own bbolt files (<see cref="LndKvForwards"/>): its channel.db read whole,
/// copies of its newest forward added to its forwarding log, and the file written afresh in its place. On PostgreSQL
/// the forwarding log is a key-value row set the harness does not write, so a build there is refused in one line.
/// </summary>
internal sealed class LndForwardsHistory : INodeHistory
{
    public string What =>
        "forwards: the node's newest forward, copied into LND's forwarding log 1 µs apart after it (its channels and amounts, and from v0.20 HTLC ids of their own) while it is stopped: into its bbolt channel.db (the file written afresh)";

    public HistorySeed Seed => HistorySeed.Forward;

    public long SeedMsat => LndSqlHistory.SmallestPaymentMsat;

    public string? Refusal(IReadOnlyDictionary<string, string> versions) => LndKvForwards.Refusal(versions);

    public async Task<HistoryWritten> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default)
    {
        var (written, last) = await Task.Run(() => LndKvForwards.Write(nodeDirectory, rows), ct);
        return new HistoryWritten(written, Listing(last));
    }

    /// <summary>The array of ForwardingHistory's answer: the check <see cref="LndNode"/> asks of a history of forwards.</summary>
    public const string Events = "forwarding_events";

    /// <summary>ForwardingHistory from the offset before the last forward: the last one written must be listed.</summary>
    public HistoryCheck Listing(long lastIndex) => new("ForwardingHistory", Events, lastIndex);
}
