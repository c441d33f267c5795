using Lightning.Bench.Progress;

namespace Lightning.Bench.NodeKinds;

/// <summary>
/// How a kind's node is given a history of past activity before the measured window (a case's size parameter, e.g.
/// HistoryRows): rows written into its database while it is stopped, by the fastest honest means the node offers.
/// </summary>
internal interface INodeHistory
{
    /// <summary>What one row is and how it is made, for the manifest and the docs.</summary>
    string What { get; }

    /// <summary>What the node does in setup for its rows to copy: forwards, pays and receives a payment (channel moves), or only receives (invoices: the history is then the payee's).</summary>
    HistorySeed Seed => HistorySeed.Forward | HistorySeed.Pay | HistorySeed.Receive;

    /// <summary>
    /// What each setup payment the history copies is worth (msat): 1, as in Core Lightning's own benchmark, so that
    /// millions of copies of its moves stay within the channels' balances (the bookkeeper refuses an account below zero).
    /// </summary>
    long SeedMsat => 1;

    /// <summary>Why a build whose programs report <paramref name="versions"/> cannot be given a history (one line), or null.</summary>
    string? Refusal(IReadOnlyDictionary<string, string> versions) => null;

    /// <summary>
    /// Grows the stopped node's history to <paramref name="rows"/> rows (copies of what it already did); returns how
    /// many it wrote and how to ask the node for the last. A build that keeps no such rows is refused with
    /// <see cref="Progress.UsageException"/>.
    /// </summary>
    Task<HistoryWritten> WriteAsync(string nodeDirectory, long rows, CancellationToken ct = default);

    /// <summary>As <see cref="WriteAsync(string, long, CancellationToken)"/>, given where the node keeps its database (its folder, or the topology's server).</summary>
    Task<HistoryWritten> WriteAsync(HistoryStore store, long rows, CancellationToken ct = default) =>
        store.Database is null
            ? WriteAsync(store.NodeDirectory, rows, ct)
            : throw new UsageException(
                $"this history is written into a node's own database file, and the node keeps its database on PostgreSQL ({store.Database.Name}): give the history to a build on its own files (drop --db postgres)"
            );

    /// <summary>How the node is asked for its history's last row, by that row's created index.</summary>
    HistoryCheck Listing(long lastIndex);

    /// <summary>How its rows are kept apart and copied into another topology's node of the same build; null: never kept.</summary>
    IHistorySnapshots? Snapshots => null;
}

/// <summary>
/// A history's rows kept as a file apart from the node that made them, and copied into another topology's node of the
/// same build (see <see cref="Setup.HistorySnapshotStore"/> for where, and the key).
/// </summary>
internal interface IHistorySnapshots
{
    /// <summary>Each table's last row before the history is written: what a snapshot leaves out.</summary>
    Task<IReadOnlyDictionary<string, long>> MarkAsync(string nodeDirectory, CancellationToken ct);

    /// <summary>Keeps the rows written since <paramref name="marks"/> in <paramref name="file"/>, whole or not at all.</summary>
    /// <param name="names">The topology's node names by node id (lower-case hex).</param>
    Task SaveAsync(
        string nodeDirectory,
        IReadOnlyDictionary<string, long> marks,
        IReadOnlyDictionary<string, string> names,
        string file,
        string key,
        CancellationToken ct
    );

    /// <summary>Why <paramref name="file"/> cannot be used for <paramref name="key"/> (missing, another key or format, cut short, damaged), or null.</summary>
    Task<string?> ProblemAsync(string file, string key, CancellationToken ct);

    /// <summary>Copies the snapshot's rows into the stopped node; null when this topology's channels are not the snapshot's.</summary>
    Task<(long Rows, long LastIndex)?> ApplyAsync(
        string nodeDirectory,
        string file,
        IReadOnlyDictionary<string, string> names,
        CancellationToken ct
    );
}

/// <summary>What a history wrote: its rows, and the node's listing that must show the last of them.</summary>
internal sealed record HistoryWritten(long Rows, HistoryCheck Check);

/// <summary>A node's listing (<paramref name="Method"/>, its array <paramref name="Array"/>) asked from its created index <paramref name="LastIndex"/>.</summary>
internal sealed record HistoryCheck(string Method, string Array, long LastIndex);

/// <summary>What a node does in setup before its history is copied from its own records.</summary>
[Flags]
internal enum HistorySeed
{
    Forward = 1,
    Pay = 2,
    Receive = 4,
}

/// <summary>The histories a node can be given (--history-of).</summary>
internal static class HistoryKinds
{
    /// <summary>Core Lightning's channel moves (v25.09+), digested by its bookkeeper: PR 8677's.</summary>
    public const string Moves = "moves";

    /// <summary>Paid invoices of the payee: issue 1506's.</summary>
    public const string Invoices = "invoices";

    /// <summary>Payments the node made, with their HTLC rows and channel moves.</summary>
    public const string Payments = "payments";

    /// <summary>Forwards the node routed, with their HTLC rows and channel moves.</summary>
    public const string Forwards = "forwards";

    public static readonly IReadOnlyList<string> All = [Moves, Invoices, Payments, Forwards];
}

/// <summary>What <see cref="IHistorySnapshots.ProblemAsync"/> says of a snapshot not made yet.</summary>
internal static class LightningdSnapshotProblems
{
    public const string None = "none made yet";
}
