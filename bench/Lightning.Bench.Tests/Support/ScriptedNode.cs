using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// An in-memory node for the payment driver's own logic: it makes an invoice for every request, keeps what it was asked,
/// and pays as <see cref="Pay"/> says (succeeds by default). Setup calls are not part of it.
/// </summary>
internal sealed class ScriptedNode(string name) : ILightningNode
{
    private readonly List<(long AmountMsat, string Label, PaymentTag Tag)> invoices = new();
    private readonly List<PaymentTag> paid = new();

    public string Name { get; } = name;

    public string NodeId => $"{Name}-id";

    public string Version => "scripted";

    public PeerAddress Address => new(Name, 9735);

    /// <summary>What a pay call does after it is counted.</summary>
    public Func<NodeInvoice, CancellationToken, Task> Pay { get; set; } = (_, _) => Task.CompletedTask;

    public IReadOnlyList<(long AmountMsat, string Label, PaymentTag Tag)> Invoices
    {
        get
        {
            lock (invoices)
            {
                return invoices.ToList();
            }
        }
    }

    public IReadOnlyList<PaymentTag> Paid
    {
        get
        {
            lock (paid)
            {
                return paid.ToList();
            }
        }
    }

    public Task<NodeInvoice> CreateInvoiceAsync(
        long amountMsat,
        string label,
        string description,
        PaymentTag tag,
        CancellationToken ct = default
    )
    {
        lock (invoices)
        {
            invoices.Add((amountMsat, label, tag));
        }
        return Task.FromResult(new NodeInvoice($"lnbcrt-{label}", $"hash-{tag.PaymentId}"));
    }

    /// <summary>Labels of the invoices deleted.</summary>
    public List<string> Deleted { get; } = [];

    public Task DeleteInvoiceAsync(string label, PaymentTag tag, CancellationToken ct = default)
    {
        lock (Deleted)
        {
            Deleted.Add(label);
        }
        return Task.CompletedTask;
    }

    public async Task<PaymentParts?> PayAsync(NodeInvoice invoice, PaymentTag tag, CancellationToken ct = default)
    {
        lock (paid)
        {
            paid.Add(tag);
        }
        await Pay(invoice, ct);
        return new PaymentParts(1, 0);
    }

    public Task<NodeSyncState> GetSyncStateAsync(CancellationToken ct = default) => throw new NotSupportedException();

    public Task<string> NewAddressAsync(CancellationToken ct = default) => throw new NotSupportedException();

    public Task<long> ConfirmedBalanceSatAsync(CancellationToken ct = default) => throw new NotSupportedException();

    public Task ConnectPeerAsync(ILightningNode peer, CancellationToken ct = default) =>
        throw new NotSupportedException();

    public Task OpenChannelAsync(
        ILightningNode peer,
        long capacitySat,
        long pushMsat,
        CancellationToken ct = default
    ) => throw new NotSupportedException();

    public Task<IReadOnlyList<ChannelState>> GetChannelStatesAsync(
        ILightningNode peer,
        CancellationToken ct = default
    ) => throw new NotSupportedException();

    public Task<int> CountRoutesAsync(ILightningNode payee, long amountMsat, CancellationToken ct = default) =>
        throw new NotSupportedException();

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
