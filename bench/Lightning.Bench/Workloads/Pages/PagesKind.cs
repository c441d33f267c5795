using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Workloads.Pages;

/// <summary>
/// A node lists a page of its history from the middle of it (list-invoices: the payee's invoices; list-payments: the
/// payer's payments), Concurrency calls at once: what an operator's tools do paging through a large node's history,
/// and what LND's #10601 and #10700 made fast at deep offsets. It only reads.
/// </summary>
internal sealed class PagesKind(HistoryTable table) : IWorkloadKind
{
    /// <summary>Rows a page asks for: what LND's and Core Lightning's own clients page by is of this order.</summary>
    public const int PageSize = 100;

    private bool OfPayee => table == HistoryTable.Invoices;

    public string Name => OfPayee ? "list-invoices" : "list-payments";

    public string Noun => "call";

    public string Description =>
        OfPayee
            ? $"the payee lists {PageSize} of its invoices from the middle of its history by created index (Core Lightning: listinvoices index=created start limit; LND: ListInvoices index_offset num_max_invoices), Concurrency calls at once; it only reads"
            : $"the payer lists {PageSize} of its payments from the middle of its history by created index (Core Lightning: listsendpays index=created start limit; LND: ListPayments index_offset max_payments), Concurrency calls at once; it only reads";

    public string MethodOf(PaymentCalls calls) => OfPayee ? "list invoices (page)" : "list payments (page)";

    public string? Refusal(TopologySpec topology) => null;

    public IReadOnlyList<Capability> Needs { get; } = [KnownCapabilities.HistoryPages];

    public IWorkload Create(WorkloadSetup setup) => new PagesWorkload(setup, table, OfPayee);

    /// <summary>Each node's page starts where its history's middle was when the case began: every call lists the same rows.</summary>
    private sealed class PagesWorkload : IWorkload
    {
        private readonly WorkloadSetup setup;
        private readonly HistoryTable table;
        private readonly bool ofPayee;
        private readonly Dictionary<string, (long Offset, long Last)> offsets = [];
        private readonly OneCallWorkload calls;

        public PagesWorkload(WorkloadSetup setup, HistoryTable table, bool ofPayee)
        {
            (this.setup, this.table, this.ofPayee) = (setup, table, ofPayee);
            calls = new OneCallWorkload(setup, (flow, tag, ct) => ListAsync(NodeOf(flow), tag, ct), toPayee: ofPayee);
        }

        /// <summary>One page; fewer rows than the node's history has after the offset is a failed call, said with both counts.</summary>
        private async Task ListAsync(string node, PaymentTag tag, CancellationToken ct)
        {
            var (offset, last) = offsets[node];
            var listed = await setup.Nodes[node].Get<IHistoryPages>().ListPageAsync(table, offset, PageSize, tag, ct);
            var expected = Math.Min(PageSize, last - offset);
            if (listed < expected)
            {
                var what = table.ToString().ToLowerInvariant();
                throw new NodeCallException(
                    node,
                    $"list {what}",
                    NodeCallFailure.BadAnswer,
                    $"{node} listed {listed} of the {expected} {what} after index {offset} (its last was {last} when the case began)"
                );
            }
        }

        private string NodeOf(PaymentFlow flow) => ofPayee ? flow.Payee : flow.Payer;

        public async Task PrepareAsync(int operations, CancellationToken ct = default)
        {
            foreach (var node in setup.Flows.Select(NodeOf).Distinct())
            {
                var last = await setup.Nodes[node].Get<IHistoryPages>().LastIndexAsync(table, ct);
                offsets[node] = (last / 2, last);
            }
        }

        public Task BeforeInvocationAsync(int operations, CancellationToken ct = default) => Task.CompletedTask;

        public Task RunAsync(int invocation, int operations, CancellationToken ct = default) =>
            calls.RunAsync(invocation, operations, ct);
    }
}
