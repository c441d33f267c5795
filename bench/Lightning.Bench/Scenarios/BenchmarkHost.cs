namespace Lightning.Bench.Scenarios;

/// <summary>
/// The one static of the harness, and its narrow boundary with BenchmarkDotNet: BenchmarkDotNet creates scenario
/// instances and reads their parameter sources by reflection, so they find the run here (as an
/// <see cref="IBenchmarkRun"/>) while it runs the benchmarks. Nothing else reads it.
/// </summary>
internal static class BenchmarkHost
{
    private static IBenchmarkRun? current;

    public static IBenchmarkRun Run =>
        current
        ?? throw new InvalidOperationException(
            "no run: scenarios run through Lightning.Bench's Program (./run.sh), not on their own"
        );

    /// <summary>Makes <paramref name="run"/> the scenarios' run until the returned handle is disposed.</summary>
    public static IDisposable Host(IBenchmarkRun run)
    {
        if (Interlocked.CompareExchange(ref current, run, null) is not null)
        {
            throw new InvalidOperationException("another run is hosting BenchmarkDotNet in this process");
        }
        return new Release(run);
    }

    private sealed class Release(IBenchmarkRun run) : IDisposable
    {
        public void Dispose() => Interlocked.CompareExchange(ref current, null, run);
    }
}
