using System.Diagnostics;
using System.Globalization;

namespace Lightning.Bench.Results;

/// <summary>
/// How long one topology took to get ready, step by step, from the first container started to the last route found
/// (<see cref="ReadySeconds"/>: what every extra topology costs), and the idle CPU window measured after it.
/// </summary>
/// <param name="IdleAfterPayments">The idle window came after the payments, while the next topology was set up, so it cost the run no time of its own.</param>
internal sealed record SetupTimes(
    IReadOnlyList<SetupStep> Steps,
    double IdleWindowSeconds = 0,
    bool IdleAfterPayments = false
)
{
    /// <summary>Compose up to route found.</summary>
    public double ReadySeconds => Steps.Sum(s => s.Seconds);

    /// <summary>"3.8 s (containers 1.2, chain 0.3, …)".</summary>
    public override string ToString() =>
        $"{F(ReadySeconds)} s ({string.Join(", ", Steps.Select(s => $"{s.Name} {F(s.Seconds)}"))})";

    private static string F(double seconds) => seconds.ToString("0.0", CultureInfo.InvariantCulture);

    /// <summary>Times the steps of a setup as they end, one after another.</summary>
    public sealed class Clock
    {
        private readonly Stopwatch sinceLap = Stopwatch.StartNew();
        private readonly List<SetupStep> steps = new();

        /// <summary>The step that just ended took the time since the previous one ended.</summary>
        public void Lap(string step)
        {
            steps.Add(new SetupStep(step, sinceLap.Elapsed.TotalSeconds));
            sinceLap.Restart();
        }

        public SetupTimes Times => new(steps.ToList());
    }
}
