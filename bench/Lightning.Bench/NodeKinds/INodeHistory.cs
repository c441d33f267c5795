namespace Lightning.Bench.NodeKinds;

/// <summary>
/// How a kind's node is given a history of past activity before the measured window (a case's size parameter, e.g.
/// HistoryRows): rows written into its database while it is stopped, by the fastest honest means the node offers.
/// </summary>
internal interface INodeHistory
{
    /// <summary>What one row is and how it is made, for the manifest and the docs.</summary>
    string What { get; }

    /// <summary>Why a build whose programs report <paramref name="versions"/> cannot be given a history (one line), or null.</summary>
    string? Refusal(IReadOnlyDictionary<string, string> versions) => null;

    /// <summary>
    /// Grows the stopped node's history to <paramref name="rows"/> rows (copies of what it already did); returns how
    /// many it wrote. A build that keeps no such rows is refused with <see cref="Progress.UsageException"/>.
    /// </summary>
    Task<long> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default);
}
