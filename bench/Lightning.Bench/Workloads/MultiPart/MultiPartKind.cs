using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.MultiPart;

/// <summary>
/// Multi-part payments: an invoice for more than any one of the payer's channels can carry, paid by the payer in parts
/// over several paths (xpay splits it; askrene finds the paths). Each payment's parts and its failed part attempts are
/// recorded as the payer reports them; its latency is the time until every part settled.
/// </summary>
internal sealed class MultiPartKind : IWorkloadKind
{
    public const string WorkloadName = "mpp";

    public string Name => WorkloadName;

    public string Noun => "payment";

    public string Description =>
        "an invoice larger than any one of the payer's channels can carry, paid in parts over several paths (--amount-msat above a channel's capacity; a scenario with several paths)";

    public string MethodOf(PaymentCalls calls) => $"{calls.Description} in parts";

    public bool SplitsPayments => true;

    /// <summary>Between invocations the payer's channels are paid back each over itself (setup's liquidity reset).</summary>
    public IReadOnlyList<Capability> Needs { get; } = [KnownCapabilities.ChannelBalances, KnownCapabilities.PathChoice];

    public string? SplitRefusal(TopologySpec topology, long amountMsat, int concurrency) =>
        AmountRefusal(topology, amountMsat, concurrency);

    public string? Refusal(TopologySpec topology) =>
        topology.Flows.FirstOrDefault(f => topology.Channels.Count(c => c.From == f.Payer || c.To == f.Payer) < 2)
            is { } flow
            ? $"{flow.Payer} has one channel: a payment cannot split over paths it does not have (AlicePaysBobOverTwoPaths has two)"
            : null;

    /// <summary>
    /// Why <paramref name="amountMsat"/> is no multi-part payment on <paramref name="topology"/> (one channel of the payer
    /// carries it), or why <paramref name="concurrency"/> of them cannot be in flight at once (the payer's channels
    /// together cannot carry them), or null.
    /// </summary>
    public static string? AmountRefusal(TopologySpec topology, long amountMsat, int concurrency = 1)
    {
        foreach (var flow in topology.Flows)
        {
            // What the payer can send on each of its channels: its side (the capacity, less what it pushed and its 1 % reserve; or what was pushed to it).
            var channels = topology
                .Channels.Where(c => c.From == flow.Payer || c.To == flow.Payer)
                .Select(c => c.From == flow.Payer ? c.CapacitySat * 1000 * 99 / 100 - c.PushMsat : c.PushMsat)
                .ToList();
            if (channels.Count > 0 && amountMsat <= channels.Max())
            {
                return $"one channel of {flow.Payer} carries {amountMsat} msat: give --amount-msat above {channels.Max()} (and at most {channels.Sum()}) so it must split";
            }
            if (amountMsat * concurrency > channels.Sum())
            {
                return concurrency == 1
                    ? $"{flow.Payer}'s channels together carry {channels.Sum()} msat, less than {amountMsat}"
                    : $"{flow.Payer}'s channels together carry {channels.Sum()} msat, less than {concurrency} payments of {amountMsat} at once: lower --concurrency";
            }
        }
        return null;
    }

    public IWorkload Create(WorkloadSetup setup) => new MultiPartWorkload(setup);
}
