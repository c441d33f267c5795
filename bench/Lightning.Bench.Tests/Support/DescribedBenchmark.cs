using BenchmarkDotNet.Attributes;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Tests.Support;

/// <summary>A benchmark shaped like a scenario (a Build parameter) that still names its method the old way, by [Benchmark(Description)].</summary>
public class DescribedBenchmark
{
    public const string OldDescription = "invoice+xpay";

    [ParamsSource(nameof(Builds))]
    public BuildName Build { get; set; } = new(0, "");

    public static IEnumerable<BuildName> Builds => [new(0, "cln"), new(1, "standin")];

    [Benchmark(Description = OldDescription)]
    public void Pay() { }
}
