using System.Globalization;
using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// How long the run's topologies took to get ready (containers started to route found), per step: every topology a comparison
/// adds costs this much, so it is printed with every run and kept in comparison.md.
/// </summary>
internal static class SetupReport
{
    public static string Markdown(IReadOnlyList<CaseResults> cases)
    {
        var started = cases.Where(c => c.Topology?.Setup is not null).ToList();
        var setups = started.Select(c => c.Topology!.Setup!).ToList();
        if (setups.Count == 0)
        {
            return "";
        }
        var ready = setups.Select(s => s.ReadySeconds).ToList();
        var byStep = setups.SelectMany(s => s.Steps).GroupBy(step => step.Name).ToDictionary(g => g.Key, g => g.Select(step => step.Seconds).ToList());
        var text = new StringBuilder("## Setup: containers started to route found\n\n");
        text.AppendLine($"{setups.Count} topologies ready in median {S(Median(ready))} s (range {S(ready.Min())}–{S(ready.Max())} s), " +
            (setups.All(s => s.IdleAfterPayments)
                ? $"and each one's idle CPU measured for {S(setups.Max(s => s.IdleWindowSeconds))} s after its payments, while the next topology was set up."
                : $"then {S(setups.Max(s => s.IdleWindowSeconds))} s to measure the nodes' idle CPU."));
        text.AppendLine();
        text.AppendLine($"| step | {string.Join(" | ", byStep.Keys)} | ready |");
        text.AppendLine($"|---|{string.Concat(byStep.Keys.Select(_ => "---:|"))}---:|");
        text.AppendLine($"| median s | {string.Join(" | ", byStep.Values.Select(v => S(Median(v))))} | {S(Median(ready))} |");
        text.AppendLine($"| max s | {string.Join(" | ", byStep.Values.Select(v => S(v.Max())))} | {S(ready.Max())} |");
        // Builds of other node kinds set up in other times (LND creates its wallet at first start): each build's medians.
        var builds = started.GroupBy(c => BuildOf(c.CaseKey)).Where(g => g.Key is not null).ToList();
        if (builds.Count > 1)
        {
            foreach (var build in builds)
            {
                var own = build.Select(c => c.Topology!.Setup!).ToList();
                var steps = byStep.Keys.Select(step => S(Median(own.SelectMany(o => o.Steps).Where(x => x.Name == step).Select(x => x.Seconds).ToList())));
                text.AppendLine($"| median s, build {build.Key} | {string.Join(" | ", steps)} | {S(Median(own.Select(o => o.ReadySeconds).ToList()))} |");
            }
        }
        return text.ToString();
    }

    private static string? BuildOf(string caseKey) =>
        System.Text.RegularExpressions.Regex.Match(caseKey, "(?:^|, )Build=([^,]+)") is { Success: true } m ? m.Groups[1].Value : null;

    private static double Median(IReadOnlyList<double> values) => CaseFigures.Percentile(values, 0.5);

    private static string S(double seconds) => double.IsNaN(seconds) ? "-" : seconds.ToString("0.0", CultureInfo.InvariantCulture);
}
