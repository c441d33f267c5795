using System.Diagnostics;

namespace Lightning.Bench.Progress;

/// <summary>Progress lines with elapsed times for long steps, prefixed so they stand out in BenchmarkDotNet's log.</summary>
internal sealed class RunProgress(TextWriter output)
{
    private readonly Stopwatch sinceStart = Stopwatch.StartNew();

    public static RunProgress Console { get; } = new(System.Console.Out);

    public void Info(string message)
    {
        lock (output)
        {
            output.WriteLine($"// lnbench [{sinceStart.Elapsed.TotalSeconds,7:0.0} s] {message}");
            output.Flush();
        }
    }

    /// <summary>Prints the step now and its duration when disposed.</summary>
    public Step Begin(string step)
    {
        Info($"{step}...");
        return new Step(this, step);
    }

    public sealed class Step(RunProgress progress, string name) : IDisposable
    {
        private readonly Stopwatch elapsed = Stopwatch.StartNew();

        public void Dispose() => progress.Info($"{name}: done in {elapsed.Elapsed.TotalSeconds:0.0} s");
    }
}
