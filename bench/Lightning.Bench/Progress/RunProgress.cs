using System.Diagnostics;

namespace Lightning.Bench.Progress;

/// <summary>
/// Progress lines with elapsed times for long steps, prefixed so they stand out in BenchmarkDotNet's log, and the
/// <see cref="Model"/> of where the run is. Each line goes to the run's <see cref="Log"/> (when it has one) and to the
/// renderer, which prints it (plain) or shows it under a live display.
/// </summary>
internal sealed class RunProgress
{
    private readonly Stopwatch sinceStart = Stopwatch.StartNew();
    private readonly Lock gate = new();
    private readonly IProgressRenderer renderer;

    /// <summary>Plain lines on <paramref name="output"/>, kept nowhere else.</summary>
    public RunProgress(TextWriter output)
        : this(new PlainProgressRenderer(output)) { }

    public RunProgress(IProgressRenderer renderer, RunLog? log = null)
    {
        this.renderer = renderer;
        Log = log;
    }

    /// <summary>Plain lines on the console, for what runs outside a run's folder (a replay's first line, side-by-side runs).</summary>
    public static RunProgress Console { get; } = new(System.Console.Out);

    /// <summary>Where the run is, fed by the run and shown by a live renderer.</summary>
    public ProgressModel Model { get; } = new();

    /// <summary>The run's console.log, or null.</summary>
    public RunLog? Log { get; }

    /// <summary>Whether a live display shows the run, so BenchmarkDotNet's log must keep off the terminal.</summary>
    public bool IsLive => renderer.IsLive;

    public void Info(string message)
    {
        var line = $"// lnbench [{sinceStart.Elapsed.TotalSeconds, 7:0.0} s] {message}";
        // One order for the log and the console, whichever threads report.
        lock (gate)
        {
            Log?.WriteLine(line);
            renderer.Line(line);
        }
    }

    /// <summary>Shows the model from now on (a live renderer takes the terminal until <see cref="StopDisplay"/>).</summary>
    public void StartDisplay() => renderer.Start(Model, Log?.Path);

    /// <summary>Ends a live display, its last frame left on the screen; later lines are plain. Idempotent.</summary>
    public void StopDisplay() => renderer.Stop();

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
