using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.NodeKinds;

/// <summary>
/// The spans of a topology whose nodes may be of different kinds: each span is read and joined by the trace source of
/// the kind of the node that sent it.
/// </summary>
internal sealed class TopologyTraceJoin : ITraceJoin
{
    private readonly IReadOnlyDictionary<string, ITraceSource> sources;

    private TopologyTraceJoin(IReadOnlyDictionary<string, ITraceSource> sources) => this.sources = sources;

    /// <summary>The join of <paramref name="topology"/>'s nodes, or null when none of their kinds has a trace source.</summary>
    public static TopologyTraceJoin? Of(TopologySpec topology, NodeKindCatalog kinds) =>
        Of(topology.Nodes.Select(n => (n.Name, n.Kind)), kinds);

    /// <summary>The join of nodes given by name and kind (a run's manifest keeps them), or null when none of their kinds has a trace source.</summary>
    public static TopologyTraceJoin? Of(IEnumerable<(string Node, string Kind)> nodes, NodeKindCatalog kinds)
    {
        var sources = new Dictionary<string, ITraceSource>();
        foreach (var (node, kind) in nodes)
        {
            if (kinds.Get(kind).Traces is { } source)
            {
                sources[node] = source;
            }
        }
        return sources.Count == 0 ? null : new TopologyTraceJoin(sources);
    }

    /// <summary>The trace source of <paramref name="node"/>'s kind, or null when it sends no spans.</summary>
    public ITraceSource? SourceOf(string node) => sources.GetValueOrDefault(node);

    public string OperationOf(Span span) => SourceOf(span.Node)?.OperationOf(span) ?? span.Name;

    public long? PaymentOf(Span span, IReadOnlyDictionary<string, long> paymentsByHash) =>
        SourceOf(span.Node)?.PaymentOf(span, paymentsByHash);

    public bool IsTopLevelStep(Span span) => SourceOf(span.Node)?.IsTopLevelStep(span) ?? false;
}
