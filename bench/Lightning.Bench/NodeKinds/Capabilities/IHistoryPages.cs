namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>
/// A node that lists its invoices or its payments a page at a time from an index, as operators' tools page through a
/// large node's history (Core Lightning: listinvoices and listsendpays by created index; LND: ListInvoices and
/// ListPayments by index offset).
/// </summary>
internal interface IHistoryPages : INodeFeature
{
    /// <summary>The created index of the newest row of <paramref name="table"/> (0 when it has none).</summary>
    Task<long> LastIndexAsync(HistoryTable table, CancellationToken ct = default);

    /// <summary>Lists up to <paramref name="limit"/> rows of <paramref name="table"/> whose created index is after <paramref name="after"/>; returns how many came.</summary>
    Task<int> ListPageAsync(HistoryTable table, long after, int limit, PaymentTag tag, CancellationToken ct = default);
}

/// <summary>What a page lists: the node's invoices (it was paid) or its payments (it paid).</summary>
internal enum HistoryTable
{
    Invoices,
    Payments,
}
