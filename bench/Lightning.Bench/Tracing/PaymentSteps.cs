using Lightning.Bench.Results;

namespace Lightning.Bench.Tracing;

/// <summary>
/// What the spans say of each payment, built span by span: how many spans joined it, and the time of its top-level
/// steps per node (<see cref="ITraceJoin.IsTopLevelStep"/> of the kind that sent them). A few numbers per payment, not its spans.
/// </summary>
internal sealed class PaymentSteps(ITraceJoin join, IReadOnlyDictionary<string, long> paymentsByHash)
{
    /// <summary>Payment ids by payment hash, the join key of spans that name the payment they serve by its hash.</summary>
    public static IReadOnlyDictionary<string, long> ByHash(IEnumerable<OperationRecord> payments) =>
        payments
            .Where(p => p.PaymentHash is not null)
            .GroupBy(p => p.PaymentHash!)
            .ToDictionary(g => g.Key, g => g.First().PaymentId);

    private readonly Dictionary<long, Payment> payments = new();

    /// <summary>Joins one span to its payment, if it has one; returns that payment's id.</summary>
    public long? Add(Span span)
    {
        if (join.PaymentOf(span, paymentsByHash) is not { } id)
        {
            return null;
        }
        if (!payments.TryGetValue(id, out var payment))
        {
            payments[id] = payment = new Payment();
        }
        payment.Spans++;
        if (join.IsTopLevelStep(span))
        {
            var key = (span.Node, join.OperationOf(span));
            var (count, totalMicros) = payment.Steps.GetValueOrDefault(key);
            payment.Steps[key] = (count + 1, totalMicros + span.DurationMicros);
        }
        return id;
    }

    /// <summary>Spans joined to a payment (0 when none).</summary>
    public int SpanCount(long paymentId) => payments.TryGetValue(paymentId, out var p) ? p.Spans : 0;

    /// <summary>A payment's steps over all nodes, largest first.</summary>
    public IReadOnlyList<(string Operation, int Count, double TotalMs)> Breakdown(long paymentId) =>
        Breakdown([paymentId], node: null);

    /// <summary>A payment's steps on one node, largest first.</summary>
    public IReadOnlyList<(string Operation, int Count, double TotalMs)> Breakdown(long paymentId, string node) =>
        Breakdown([paymentId], node);

    /// <summary>The nodes a payment has steps on.</summary>
    public IEnumerable<string> NodesOf(long paymentId) =>
        payments.TryGetValue(paymentId, out var p)
            ? p.Steps.Keys.Select(k => k.Node).Distinct().Order(StringComparer.Ordinal)
            : [];

    /// <summary>The steps of several payments added up (over all nodes), largest first.</summary>
    public IReadOnlyList<(string Operation, int Count, double TotalMs)> Breakdown(
        IEnumerable<long> paymentIds,
        string? node = null
    ) =>
        paymentIds
            .SelectMany(id => payments.TryGetValue(id, out var p) ? p.Steps : [])
            .Where(s => node is null || s.Key.Node == node)
            .GroupBy(s => s.Key.Operation)
            .Select(g => (g.Key, g.Sum(s => s.Value.Count), g.Sum(s => s.Value.TotalMicros) / 1000.0))
            .OrderByDescending(x => x.Item3)
            .ToList();

    private sealed class Payment
    {
        public int Spans { get; set; }

        public Dictionary<(string Node, string Operation), (int Count, long TotalMicros)> Steps { get; } = new();
    }
}
