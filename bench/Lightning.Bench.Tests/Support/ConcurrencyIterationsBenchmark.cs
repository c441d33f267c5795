using System.Collections.Concurrent;
using BenchmarkDotNet.Attributes;

namespace Lightning.Bench.Tests.Support;

/// <summary>A benchmark with a Concurrency parameter, as every scenario has, counting its invocations.</summary>
public class ConcurrencyIterationsBenchmark
{
    public static ConcurrentQueue<int> Invocations { get; } = new();

    [Params(1, 10)]
    public int Concurrency { get; set; }

    [Benchmark]
    public void Invoke() => Invocations.Enqueue(Concurrency);
}
