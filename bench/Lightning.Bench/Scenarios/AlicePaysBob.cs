using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>Alice pays Bob over one direct channel; each invocation starts <see cref="Concurrency"/> payments at once.</summary>
public class AlicePaysBob : ScenarioBenchmark
{
    public const long ChannelCapacitySat = 10_000_000;

    [ParamsSource(nameof(ConcurrencyValues))]
    public int Concurrency { get; set; }

    public static IEnumerable<int> ConcurrencyValues => Session.Options.Concurrency;

    protected override IReadOnlyDictionary<string, object> CaseParameters =>
        new Dictionary<string, object> { [nameof(Concurrency)] = Concurrency, [nameof(Traces)] = Traces };

    protected override int PaymentsPerInvocation => Concurrency;

    [Benchmark(Description = "invoice+xpay")]
    public Task Pay() => PayBatchAsync();

    protected override TopologySpec BuildTopology() => Build(Session.Options.ClnImage, Session.Options.BitcoindImage);

    public static TopologySpec Build(string clnImage, string bitcoindImage) => new(
        bitcoindImage,
        [new NodeSpec("alice", clnImage), new NodeSpec("bob", clnImage)],
        [new ChannelSpec("alice", "bob", ChannelCapacitySat)],
        [new PaymentFlow("alice", "bob")]);
}
