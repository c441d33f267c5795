using System.Globalization;
using System.Text;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Soak;

/// <summary>
/// What a soak's profile windows say, per node: flame graphs of its first and last window, the last against the first
/// per payment (differential flame graph), and the trend of the node's CPU per payment and of its top functions' self
/// CPU per payment over the windows (Theil–Sen per 10,000 payments, the soak's trend method, its interval widened for
/// the number of rows judged), written to profiles/profiles.md.
/// </summary>
internal static class SoakProfileReport
{
    public const int TopCount = 15;

    /// <summary>Fewer windows than this give a slope but no verdict: a bootstrap of a handful of points has no tails to speak of.</summary>
    public const int MinWindowsForVerdict = 8;

    /// <summary>The row of a node's whole CPU per payment in the trend table.</summary>
    public const string AllFunctions = "(all of the node)";

    /// <param name="sampled">Payments that ended inside windows and outside them, with their mean latency: what sampling cost.</param>
    /// <returns>Lines for the console: each node's growing or shrinking functions.</returns>
    public static IReadOnlyList<string> Write(
        string runDirectory,
        IReadOnlyList<SoakProfileWindow> windows,
        ProfileSettings settings,
        string perfVersion,
        double thresholdPercent,
        TimeSpan every,
        (long Count, double MeanMs) sampled,
        (long Count, double MeanMs) unsampled
    )
    {
        var folder = Path.Combine(runDirectory, ProfileFiles.Folder);
        Directory.CreateDirectory(Path.Combine(folder, "soak"));
        var hz = settings.FrequencyHz;
        var text = new StringBuilder("# Where the nodes' CPU went along the soak\n\n");
        text.Append(
                Invariant(
                    $"Sampled with {perfVersion}: {settings.Describe()}, in {windows.Count} windows of {SoakProfiler.WindowLength.TotalSeconds:0} s, one every {every.TotalMinutes:0.#} min, "
                )
            )
            .Append(
                "each node on its own (its container's cgroup). Each window was folded as soon as it closed (profiles/soak-window-NNN/NODE.folded); perf's raw recordings were deleted. "
            )
            .Append(Invariant($"Milliseconds are samples ÷ {hz} Hz ÷ the payments made in the window.\n\n"));
        text.Append(
                Invariant(
                    $"What sampling cost: payments that ended inside windows took {sampled.MeanMs:0.0} ms on average ({sampled.Count} payments), outside them {unsampled.MeanMs:0.0} ms ({unsampled.Count}); "
                )
            )
            .Append("folding (perf script) ran during the soak, right after each window.\n\n");
        var lines = new List<string>();
        var nodes = windows
            .SelectMany(w => w.Profiles.Select(p => p.Node))
            .Distinct()
            .Order(StringComparer.Ordinal)
            .ToList();
        foreach (var node in nodes)
        {
            var series = windows
                .Select(w => (Window: w, Profile: w.Profiles.FirstOrDefault(p => p.Node == node)))
                .Where(s => s.Profile is { Payments: > 0 })
                .Select(s =>
                    (
                        s.Window,
                        Stacks: FoldedStacks.Read(Path.Combine(runDirectory, s.Profile!.File)),
                        s.Profile.Payments
                    )
                )
                .ToList();
            if (series.Count == 0)
            {
                continue;
            }
            var (first, last) = (series[0], series[^1]);
            string Svg(string name, string svg)
            {
                var path = Path.Combine(folder, "soak", $"{node}-{name}.svg");
                AtomicFile.WriteAllText(path, svg);
                return Path.GetRelativePath(folder, path);
            }
            string Describe((SoakProfileWindow Window, FoldedStacks Stacks, int Payments) w) =>
                Invariant(
                    $"window {w.Window.Number} at {w.Window.StartSeconds / 60:0.0} min, after {w.Window.PaymentsBefore} payments: {w.Stacks.Total} samples over {w.Payments} payments"
                );
            var firstSvg = Svg(
                "first",
                FlameGraphSvg.Render(first.Stacks, $"{node}: first profile window", Describe(first))
            );
            var lastSvg = Svg(
                "last",
                FlameGraphSvg.Render(last.Stacks, $"{node}: last profile window", Describe(last))
            );
            var diffSvg = Svg(
                "last-vs-first",
                DifferentialFlameGraph.Render(
                    first.Stacks,
                    first.Payments,
                    last.Stacks,
                    last.Payments,
                    hz,
                    $"{node}: last profile window against the first",
                    $"{Describe(last)}; against {Describe(first)}",
                    baselineName: "first window",
                    candidateName: "last window"
                )
            );

            var merged = FoldedStacks.Merge(series.Select(s => s.Stacks));
            var functions = FunctionTable.Top(merged, TopCount).Select(f => f.Function).ToList();
            var rows = functions.Count + 1;
            var x = series.Select(s => (double)s.Window.PaymentsBefore).ToList();
            var selfMs = series.Select(s => ProfileReport.SelfMs(s.Stacks, s.Payments, hz)).ToList();
            text.Append($"## {node}\n\n");
            text.Append(
                $"Flame graphs: [first window]({firstSvg}), [last window]({lastSvg}), [last against first]({diffSvg}) (red: more self time per payment in the last window).\n\n"
            );
            text.Append(
                Invariant(
                    $"Trends over the {series.Count} windows (Theil–Sen per 10,000 payments, relative to the series' median; interval widened for the {rows} rows judged; flat/growing/shrinking against ±{thresholdPercent:0.##} %):\n\n"
                )
            );
            text.Append(
                "| function | called from (most samples) | first window ms/payment | last window ms/payment | trend per 10,000 payments | verdict |\n"
            );
            text.Append("|---|---|---:|---:|---|---|\n");
            foreach (var function in functions.Prepend(AllFunctions))
            {
                var y =
                    function == AllFunctions
                        ? series.Select(s => 1000.0 / hz / s.Payments * s.Stacks.Total).ToList()
                        : selfMs.Select(self => self.GetValueOrDefault(function)).ToList();
                var trend = TrendEstimate.Of(x, y, per: 10_000, thresholdPercent, seed: 1, confidence: 1 - 0.05 / rows);
                if (series.Count < MinWindowsForVerdict)
                {
                    trend = trend with { Verdict = $"unknown: {series.Count} windows, {MinWindowsForVerdict} needed" };
                }
                var callers = function == AllFunctions ? "" : ProfileReport.CalledFrom(merged, function);
                var cell = function == AllFunctions ? function : ProfileFormat.Cell(function);
                text.Append(
                    Invariant(
                        $"| {cell} | {callers} | {y[0]:0.00} | {y[^1]:0.00} | {Relative(trend)} | {trend.Verdict} |\n"
                    )
                );
                if (trend.Verdict is TrendEstimate.Growing or TrendEstimate.Shrinking)
                {
                    lines.Add(
                        Invariant(
                            $"{node}: {(function == AllFunctions ? "CPU per payment" : function)} {trend.Verdict} {trend.Relative * 100:+0.0;-0.0} % per 10,000 payments ({y[0]:0.00} → {y[^1]:0.00} ms/payment)"
                        )
                    );
                }
            }
            text.Append('\n');
        }
        AtomicFile.WriteAllText(Path.Combine(folder, ProfileReport.FileName), text.ToString());
        return lines;
    }

    private static string Relative(TrendEstimate trend) =>
        double.IsFinite(trend.Relative)
            ? Invariant(
                $"{trend.Relative * 100:+0.0;-0.0} % ({trend.RelativeLow * 100:+0.0;-0.0} … {trend.RelativeHigh * 100:+0.0;-0.0})"
            )
            : "-";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
