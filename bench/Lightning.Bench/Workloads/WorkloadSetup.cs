using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads;

/// <summary>What a workload gets to run on one case's live topology.</summary>
/// <param name="Nodes">The topology's started nodes by name.</param>
/// <param name="Flows">Who pays whom: operations are spread over the flows in turn.</param>
/// <param name="AmountMsat">The amount of each operation (--amount-msat).</param>
/// <param name="LabelPrefix">Makes invoice labels unique in the run.</param>
/// <param name="MadeAhead">--pregenerate-invoices: what can be made ahead is made in <see cref="IWorkload.PrepareAsync"/>.</param>
internal sealed record WorkloadSetup(
    IReadOnlyDictionary<string, ILightningNode> Nodes,
    IReadOnlyList<PaymentFlow> Flows,
    long AmountMsat,
    string LabelPrefix,
    OperationLog Log,
    bool MadeAhead
)
{
    /// <summary>The route queries into the payer's graph (MainnetGraph's --graph), for the routes workload; null without a graph.</summary>
    public Routes.RouteQueries? Routes { get; init; }

    /// <summary>How long an operation may go unanswered before it is given up (--operation-timeout).</summary>
    public TimeSpan OperationTimeout { get; init; } = OperationDeadline.DefaultLimit;

    /// <summary>Where a line of progress goes (an operation long unanswered); null: nowhere.</summary>
    public Action<string>? Say { get; init; }

    /// <summary>The time limit of one operation (<paramref name="what"/> names it in the line said when it is long unanswered).</summary>
    public OperationDeadline Deadline(string what, CancellationToken ct) => new(OperationTimeout, ct, what, Say);
}
