using System.Collections.Concurrent;
using BenchmarkDotNet.Attributes;

namespace Lightning.Bench.Tests.Support;

/// <summary>Records the runtime's full-collection count at each iteration's setup, invocation and cleanup.</summary>
public class GcCountingBenchmark
{
    public static ConcurrentQueue<(string Step, int FullCollections)> Steps { get; } = new();

    [IterationSetup]
    public void IterationSetup() => Steps.Enqueue(("setup", GC.CollectionCount(2)));

    [Benchmark]
    public void Invoke() => Steps.Enqueue(("invocation", GC.CollectionCount(2)));

    [IterationCleanup]
    public void IterationCleanup() => Steps.Enqueue(("cleanup", GC.CollectionCount(2)));
}
