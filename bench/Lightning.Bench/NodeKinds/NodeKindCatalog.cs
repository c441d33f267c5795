using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds.CoreLightning;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.NodeKinds;

/// <summary>The node kinds a run may name; Core Lightning is the default.</summary>
internal sealed class NodeKindCatalog
{
    public const string DefaultKind = Topology.NodeSpec.DefaultKind;

    private readonly IReadOnlyDictionary<string, INodeKind> kinds;

    public NodeKindCatalog(IEnumerable<INodeKind> kinds) => this.kinds = kinds.ToDictionary(k => k.Name);

    /// <summary>The kinds the harness ships with: a new kind is one more entry here.</summary>
    public static NodeKindCatalog Default { get; } = new([new CoreLightningKind(), new LndKind()]);

    /// <summary>The compose fragment of every kind, each in docker-fragments/.</summary>
    public IReadOnlyList<string> FragmentFiles => kinds.Values.Select(k => k.FragmentFile).Distinct().ToList();

    /// <summary>The compose fragments of every kind (and bitcoind's), from <paramref name="directory"/> (default: beside the harness).</summary>
    public ComposeFragments LoadFragments(string? directory = null, bool allowPrivileged = false) =>
        ComposeFragments.Load(directory, allowPrivileged, FragmentFiles);

    /// <summary>Every kind, Core Lightning first.</summary>
    public IReadOnlyList<INodeKind> All =>
        kinds.Values.OrderBy(k => k.Name == DefaultKind ? 0 : 1).ThenBy(k => k.Name, StringComparer.Ordinal).ToList();

    public NodeKindCatalog With(INodeKind kind) => new(kinds.Values.Where(k => k.Name != kind.Name).Append(kind));

    /// <summary>What a payment calls on the builds' nodes: one entry per distinct set of calls among their kinds.</summary>
    public IReadOnlyList<PaymentCalls> PaymentCallsOf(IEnumerable<BuildSpec> builds) =>
        builds.SelectMany(b => b.Images).Select(i => Get(i.Kind).PaymentCalls).Distinct().ToList();

    public INodeKind Get(string name) =>
        kinds.TryGetValue(name, out var kind)
            ? kind
            : throw new UsageException(
                $"node kind '{name}' is unknown: use one of {string.Join(", ", kinds.Keys.Order())} (as --build NAME=KIND=IMAGE)"
            );
}
