using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// How a run's figures grow with a scenario's size (its peers, Alices, Carols: every number of a case but
/// Concurrency) when the run has two sizes or more: one row per size and the rest of the case (build, concurrency,
/// workload), the medians over its topologies of the figures a comparison judges, the probe's slowest answer, and
/// each node's largest CPU per payment (a hub's: what one forward costs it), so flat, linear or worse can be read.
/// </summary>
internal static class ScalingReport
{
    public static string Markdown(IReadOnlyList<CaseResults> cases)
    {
        var measured = cases.Where(c => c.Figures is not null).Select(c => (Id: c.Id, Case: c)).ToList();
        var sizes = measured
            .SelectMany(m => m.Id.Cell.Numbers.Keys)
            .Where(n => n != CellId.ConcurrencyName)
            .Distinct()
            .Order(StringComparer.Ordinal)
            .Where(name => measured.Select(m => m.Id.Cell.Numbers.GetValueOrDefault(name)).Distinct().Count() >= 2)
            .ToList();
        var text = new StringBuilder();
        var noun = OperationNoun.Of(measured.Select(m => m.Case.Noun));
        foreach (var size in sizes)
        {
            text.AppendLine($"## How the figures grow with {size}");
            text.AppendLine();
            text.AppendLine(
                $"Medians over each case's topologies. {noun.PluralTitle}/s counts {noun.Plural} that ended as expected (through a hub: its forwards); CPU and storage are all Lightning nodes' per {noun.Singular}, and the busiest node's CPU per {noun.Singular} (the hub's, in HubRoutes) is named; RPC wait is the probe's slowest answer per invocation (with --probe)."
            );
            text.AppendLine();
            text.AppendLine(
                $"| case | {size} | topologies | mean ms | {noun.Plural}/s | CPU ms/{noun.Singular} | storage KB/{noun.Singular} | busiest node, CPU ms/{noun.Singular} | RPC wait ms |"
            );
            text.AppendLine("|---|---:|---:|---:|---:|---:|---:|---|---:|");
            var groups = measured
                .GroupBy(m =>
                    (
                        Others: m.Id.KeyWithout(CaseId.TopologyName, size),
                        Size: m.Id.Cell.Numbers.GetValueOrDefault(size)
                    )
                )
                .OrderBy(g => g.Key.Others, StringComparer.Ordinal)
                .ThenBy(g => g.Key.Size);
            foreach (var group in groups)
            {
                var figures = group.Select(g => g.Case.Figures!).ToList();
                double Median(Func<CaseFigures, double?> pick) => CaseFigures.MedianOfKnown(figures.Select(pick));
                var busiest = figures
                    .SelectMany(f => f.Cpu?.ByNode ?? new Dictionary<string, double>())
                    .GroupBy(n => n.Key)
                    .Select(n => (Node: n.Key, Ms: CaseFigures.MedianOfKnown(n.Select(v => (double?)v.Value))))
                    .Where(n => double.IsFinite(n.Ms))
                    .OrderByDescending(n => n.Ms)
                    .FirstOrDefault();
                text.AppendLine(
                    $"| {group.Key.Others} | {group.Key.Size} | {figures.Count} | {F(Median(f => f.MeanMs))} | {F(Median(f => f.PaymentsPerSecond))} | "
                        + $"{F(Median(f => f.Cpu?.Ms))} | {F(Median(f => f.Costs?.WrittenKb))} | {(busiest.Node is null ? "-" : $"{busiest.Node} {F(busiest.Ms)}")} | "
                        + $"{F(Median(f => f.Probe is { WorstIterationsMs.Count: > 0 } p ? CaseFigures.Percentile([.. p.WorstIterationsMs], 0.5) : null))} |"
                );
            }
            text.AppendLine();
        }
        return text.ToString();
    }

    private static string F(double value) => NodeCostReport.F(value);
}
