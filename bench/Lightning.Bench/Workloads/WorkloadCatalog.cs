using Lightning.Bench.Workloads.Bookkeeper;
using Lightning.Bench.Workloads.BothWays;
using Lightning.Bench.Workloads.FailAtPayee;
using Lightning.Bench.Workloads.Keysend;
using Lightning.Bench.Workloads.MultiPart;
using Lightning.Bench.Workloads.Payments;

namespace Lightning.Bench.Workloads;

/// <summary>Every workload a case can run, registered here once; the first is the default.</summary>
internal static class WorkloadCatalog
{
    public static IReadOnlyList<IWorkloadKind> All { get; } =
    [
        new PayWorkloadKind(),
        new FailAtPayeeKind(),
        new KeysendKind(),
        new BothWaysKind(),
        new MultiPartKind(),
        new BalancesKind(),
        new Routes.RoutesKind(),
        new Channels.ChannelsKind(),
        new Pages.PagesKind(NodeKinds.Capabilities.HistoryTable.Invoices),
        new Pages.PagesKind(NodeKinds.Capabilities.HistoryTable.Payments),
    ];

    public static IWorkloadKind Default => All[0];

    public static IWorkloadKind? Find(string name) => All.FirstOrDefault(w => w.Name == name);

    public static IWorkloadKind Get(string name) =>
        Find(name)
        ?? throw new ArgumentException(
            $"no workload '{name}' (known: {string.Join(", ", All.Select(w => w.Name))})",
            nameof(name)
        );
}
