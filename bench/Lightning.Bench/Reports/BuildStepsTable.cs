using System.Globalization;
using System.Text;
using Lightning.Bench.Processes;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// The payer's steps of the same case on every build, side by side (ms per payment, and the last build over the first),
/// appended to span-summary.md when a run compares builds.
/// </summary>
internal sealed class BuildStepsTable : IRunEndOutput
{
    public IReadOnlyList<string> Files => [SpanSummaryMarkdown.FileName];

    public async Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        var summaryMarkdown = Path.Combine(context.ResultsDirectory, SpanSummaryMarkdown.FileName);
        var steps = context
            .Results.Cases.Where(c => c.Steps is { Steps.Count: > 0 })
            .Select(c => (c.Parameters, c.Steps!))
            .ToList();
        if (context.Options.Builds.Count > 1 && File.Exists(summaryMarkdown) && steps.Count > 0)
        {
            // Rewritten whole with the table at its end, not appended to: a reader sees the file before or after, never half.
            var before = await File.ReadAllTextAsync(summaryMarkdown, ct);
            AtomicFile.WriteAllText(
                summaryMarkdown,
                before + Render(context.Options.Builds.Select(b => b.Name).ToList(), steps)
            );
        }
    }

    /// <param name="cases">Each case's parameters (with Build) and its steps, in run order.</param>
    public static string Render(
        IReadOnlyList<string> builds,
        IReadOnlyList<(IReadOnlyDictionary<string, string> Parameters, CaseSteps Steps)> cases
    )
    {
        var text = new StringBuilder(
            "## Steps by build\n\nMean ms per measured payment on the payer, the same case on each build.\n\n"
        );
        foreach (
            var group in cases.GroupBy(c =>
                string.Join(
                    ", ",
                    c.Parameters.Where(p => p.Key != "Build").OrderBy(p => p.Key).Select(p => $"{p.Key}={p.Value}")
                )
            )
        )
        {
            var byBuild = group.ToDictionary(
                c => c.Parameters["Build"],
                c => c.Steps.Steps.ToDictionary(s => s.Operation, s => s.MeanMs)
            );
            var present = builds.Where(byBuild.ContainsKey).ToList();
            if (present.Count < 2)
            {
                continue;
            }
            text.AppendLine($"### {group.Key}");
            text.AppendLine();
            text.AppendLine($"| step | {string.Join(" | ", present)} | {present[^1]}/{present[0]} |");
            text.AppendLine($"|---|{string.Concat(present.Select(_ => "---:|"))}---:|");
            var operations = byBuild
                .Values.SelectMany(s => s.Keys)
                .Distinct()
                .OrderByDescending(o => byBuild[present[0]].GetValueOrDefault(o));
            foreach (var operation in operations)
            {
                var values = present
                    .Select(b => byBuild[b].TryGetValue(operation, out var ms) ? ms : double.NaN)
                    .ToList();
                var ratio = values[^1] / values[0];
                text.AppendLine(
                    $"| {operation} | {string.Join(" | ", values.Select(Ms))} | {(double.IsNaN(ratio) || double.IsInfinity(ratio) ? "-" : ratio.ToString("0.00", CultureInfo.InvariantCulture))} |"
                );
            }
            text.AppendLine();
        }
        return text.ToString();
    }

    private static string Ms(double value) =>
        double.IsNaN(value) ? "-" : value.ToString("0.00", CultureInfo.InvariantCulture);
}
