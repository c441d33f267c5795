using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;
using Lightning.Bench.Workloads.Payments;

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

    public string Description => "an invoice larger than any one of the payer's channels can carry, paid in parts over several paths (--amount-msat above a channel's capacity; a scenario with several paths)";

    public string MethodOf(PaymentCalls calls) => $"{calls.Description} in parts";

    public bool SplitsPayments => true;

    public string? Refusal(TopologySpec topology) =>
        topology.Flows.FirstOrDefault(f => topology.Channels.Count(c => c.From == f.Payer || c.To == f.Payer) < 2) is { } flow
            ? $"{flow.Payer} has one channel: a payment cannot split over paths it does not have (AlicePaysBobOverTwoPaths has two)"
            : null;

    /// <summary>Why <paramref name="amountMsat"/> is no multi-part payment on <paramref name="topology"/> (one channel of the payer carries it, or all cannot), or null.</summary>
    public static string? AmountRefusal(TopologySpec topology, long amountMsat)
    {
        foreach (var flow in topology.Flows)
        {
            var channels = topology.Channels.Where(c => c.From == flow.Payer || c.To == flow.Payer).Select(c => c.CapacitySat * 1000 * 99 / 100).ToList();
            if (channels.Count > 0 && amountMsat <= channels.Max())
            {
                return $"one channel of {flow.Payer} carries {amountMsat} msat: give --amount-msat above {channels.Max()} so it must split";
            }
            if (amountMsat > channels.Sum())
            {
                return $"{flow.Payer}'s channels together carry {channels.Sum()} msat, less than {amountMsat}";
            }
        }
        return null;
    }

    public IWorkload Create(WorkloadSetup setup) => new PaymentDriver(setup);
}
