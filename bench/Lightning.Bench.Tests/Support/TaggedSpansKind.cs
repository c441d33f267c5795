using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A test-only kind whose spans join otherwise than Core Lightning's: by a "payment" tag, each named "tagged:NAME", its
/// "pay" spans the payer's steps. Only its trace source is used; its nodes are never started.
/// </summary>
internal sealed class TaggedSpansKind : INodeKind, ITraceSource
{
    public const string KindName = "tagged";

    public string Name => KindName;

    public string FragmentFile => "tagged.yml";

    public PaymentCalls PaymentCalls { get; } = new("tag-invoice", "tag-pay");

    public IReadOnlyDictionary<string, string> VersionProbes { get; } = new Dictionary<string, string>();

    public ITraceSource? Traces => this;

    public IReadOnlySet<Capability> Offers { get; } = new HashSet<Capability>();

    public string? EmittedSpansPrefix => null;

    public string OperationOf(Span span) => $"tagged:{span.Name}";

    public long? PaymentOf(Span span, IReadOnlyDictionary<string, long> paymentsByHash) =>
        span.Tags.TryGetValue("payment", out var id) ? long.Parse(id) : null;

    public bool IsTopLevelStep(Span span) => span.Name == "pay";

    public (long Emitted, long Arrived) CountEmitted(
        IEnumerable<string> lines,
        long stoppedUnixMicros,
        IReadOnlySet<string> receivedIds
    ) => throw new NotSupportedException("the tagged kind keeps no record of its spans");

    public ComposeService DescribeService(ComposeService fragment, NodeServiceSettings settings) => throw NotStarted();

    public void Configure(string nodeDirectory, RunCredentials credentials) => throw NotStarted();

    public string LogFile(string nodeDirectory) => throw NotStarted();

    public Task<(ILightningNode? Node, string Observed)> TryConnectAsync(
        NodeContainer container,
        CancellationToken ct = default
    ) => throw NotStarted();

    private static NotSupportedException NotStarted() => new("the tagged kind's nodes are never started");
}
