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
        var steps = setups.SelectMany(s => s.Steps).Select(step => step.Name).Distinct().ToList();
        var text = new StringBuilder("## Setup: containers started to route found\n\n");
        text.AppendLine(
            $"{setups.Count} topologies ready in median {S(Median(ready))} s (range {S(ready.Min())}–{S(ready.Max())} s), "
                + (
                    setups.All(s => s.IdleAfterPayments)
                        ? $"and each one's idle CPU measured for {S(setups.Max(s => s.IdleWindowSeconds))} s after its payments, while the next topology was set up."
                        : $"then {S(setups.Max(s => s.IdleWindowSeconds))} s to measure the nodes' idle CPU."
                )
        );
        text.AppendLine();
        text.AppendLine($"| step | {string.Join(" | ", steps)} | ready |");
        text.AppendLine($"|---|{string.Concat(steps.Select(_ => "---:|"))}---:|");
        text.AppendLine(Row("median s", setups, Median));
        text.AppendLine(Row("max s", setups, v => v.Max()));
        // Builds of other node kinds set up in other times (LND creates its wallet at first start): each build's medians.
        var builds = started.GroupBy(c => c.Id.Build).Where(g => g.Key.Length > 0).ToList();
        if (builds.Count > 1)
        {
            foreach (var build in builds)
            {
                text.AppendLine(
                    Row($"median s, build {build.Key}", build.Select(c => c.Topology!.Setup!).ToList(), Median)
                );
            }
        }
        return text.ToString();

        // One row: each step's seconds over the topologies, then their time to ready, summarised by the same function.
        string Row(string label, IReadOnlyList<SetupTimes> of, Func<IReadOnlyList<double>, double> summary) =>
            $"| {label} | {string.Join(" | ", steps.Select(step => S(summary(of.SelectMany(o => o.Steps).Where(x => x.Name == step).Select(x => x.Seconds).ToList()))))} | "
            + $"{S(summary(of.Select(o => o.ReadySeconds).ToList()))} |";
    }

    private static double Median(IReadOnlyList<double> values) => CaseFigures.Percentile(values, 0.5);

    private static string S(double seconds) =>
        double.IsNaN(seconds) ? "-" : seconds.ToString("0.0", CultureInfo.InvariantCulture);
}
