using BenchmarkDotNet.Attributes;

namespace Lightning.Bench.Tests.Support;

/// <summary>A benchmark shaped like a two-build comparison (Build, Concurrency, Topology), whose cases the progress model counts.</summary>
public class ProgressBenchmark
{
    [Params("a", "b")]
    public string Build { get; set; } = "";

    [Params(1)]
    public int Concurrency { get; set; }

    [Params(1, 2)]
    public int Topology { get; set; }

    [Benchmark]
    public void Pay() => Thread.Sleep(1);
}
