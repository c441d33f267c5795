using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Workloads.BothWays;

/// <summary>
/// Payments both ways at once: every flow also runs from its payee back to its payer, over the same channels (each
/// channel's funder gives the other side half its capacity at the open), Concurrency payments in flight from each end
/// of a channel. Core Lightning allows 483 HTLCs in flight per direction of a channel on regtest; what happens beyond
/// (payments that wait or fail) is counted as each one ends.
/// </summary>
internal sealed class BothWaysKind : IWorkloadKind
{
    public const string WorkloadName = "both-ways";

    public string Name => WorkloadName;

    public string Noun => "payment";

    public string Description =>
        "every payer pays and is paid at once over the same channels (half of each channel given to its other side at the open), Concurrency payments from each end";

    public string MethodOf(PaymentCalls calls) => $"{calls.Description} both ways";

    public string? Refusal(TopologySpec topology) =>
        topology.Flows.FirstOrDefault(f => !Connected(topology, f.Payer, f.Payee)) is { } lone
            ? $"{lone.Payee} has no channel path to {lone.Payer}: payments both ways need channels between them"
            : null;

    public TopologySpec Shape(TopologySpec topology) =>
        new(
            topology.BitcoindImage,
            topology.Nodes,
            topology.Channels.Select(c => c with { PushMsat = c.CapacitySat * 1000 / 2 }).ToList(),
            [.. topology.Flows, .. topology.Flows.Select(f => new PaymentFlow(f.Payee, f.Payer))]
        );

    public IWorkload Create(WorkloadSetup setup) => new PaymentDriver(setup);

    private static bool Connected(TopologySpec topology, string from, string to)
    {
        var seen = new HashSet<string> { from };
        var frontier = new Queue<string>([from]);
        while (frontier.TryDequeue(out var node))
        {
            foreach (var next in topology.PeersOf(node))
            {
                if (seen.Add(next))
                {
                    frontier.Enqueue(next);
                }
            }
        }
        return seen.Contains(to);
    }
}
