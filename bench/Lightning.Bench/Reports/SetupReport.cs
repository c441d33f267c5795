using System.Globalization;
using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// How long the run's topologies took to get ready (compose up to route found), per step: every topology a comparison
/// adds costs this much, so it is printed with every run and kept in comparison.md.
/// </summary>
public static class SetupReport
{
    public static string Markdown(IReadOnlyList<CaseResults> cases)
    {
        var setups = cases.Select(c => c.Topology?.Setup).OfType<SetupTimes>().ToList();
        if (setups.Count == 0)
        {
            return "";
        }
        var text = new StringBuilder("## Setup: compose up to route found\n\n");
        text.AppendLine($"{setups.Count} topologies ready in median {S(Median(setups.Select(s => s.ReadySeconds)))} s " +
            $"(range {S(setups.Min(s => s.ReadySeconds))}–{S(setups.Max(s => s.ReadySeconds))} s), " +
            $"then {S(setups.Max(s => s.IdleWindowSeconds))} s to measure the nodes' idle CPU.");
        text.AppendLine();
        var steps = setups.SelectMany(s => s.Steps.Select(step => step.Name)).Distinct().ToList();
        text.AppendLine($"| step | {string.Join(" | ", steps)} | ready |");
        text.AppendLine($"|---|{string.Concat(steps.Select(_ => "---:|"))}---:|");
        text.AppendLine($"| median s | {string.Join(" | ", steps.Select(name => S(Median(setups.SelectMany(s => s.Steps.Where(x => x.Name == name).Select(x => x.Seconds))))))} | {S(Median(setups.Select(s => s.ReadySeconds)))} |");
        text.AppendLine($"| max s | {string.Join(" | ", steps.Select(name => S(setups.SelectMany(s => s.Steps.Where(x => x.Name == name).Select(x => x.Seconds)).DefaultIfEmpty(double.NaN).Max())))} | {S(setups.Max(s => s.ReadySeconds))} |");
        return text.ToString();
    }

    private static double Median(IEnumerable<double> values) => CaseFigures.Percentile(values.ToList(), 0.5);

    private static string S(double seconds) => double.IsNaN(seconds) ? "-" : seconds.ToString("0.0", CultureInfo.InvariantCulture);
}
