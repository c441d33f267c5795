using System.Collections.Concurrent;
using BenchmarkDotNet.Attributes;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A benchmark shaped like a scenario, whose setup and cleanup only finish after a real asynchronous wait: it logs
/// each step as it completes, so the log shows whether BenchmarkDotNet waited for each Task before going on.
/// </summary>
public class AsyncSetupBenchmark
{
    private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(50);

    public static ConcurrentQueue<string> Steps { get; } = new();

    [GlobalSetup]
    public async Task GlobalSetupAsync()
    {
        await Task.Delay(Pause);
        Steps.Enqueue("global setup");
    }

    [IterationSetup]
    public async Task IterationSetupAsync()
    {
        await Task.Delay(Pause);
        Steps.Enqueue("iteration setup");
    }

    [Benchmark]
    public Task InvokeAsync()
    {
        Steps.Enqueue("invocation");
        return Task.CompletedTask;
    }

    [IterationCleanup]
    public async Task IterationCleanupAsync()
    {
        await Task.Delay(Pause);
        Steps.Enqueue("iteration cleanup");
    }

    [GlobalCleanup]
    public async Task GlobalCleanupAsync()
    {
        await Task.Delay(Pause);
        Steps.Enqueue("global cleanup");
    }
}
