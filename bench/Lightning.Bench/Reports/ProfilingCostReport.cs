using System.Globalization;
using System.Text;
using Lightning.Bench.Results;
using Lightning.Bench.Statistics;

namespace Lightning.Bench.Reports;

/// <summary>
/// What sampling the stacks cost, measured in the same run: every topology ran sampled and unsampled invocations
/// alternately, so per case the ratio sampled/unsampled of the invocation time and of the nodes' CPU per payment is
/// paired by topology (the method of the build comparisons: a t-interval on the per-topology log ratios).
/// </summary>
internal static class ProfilingCostReport
{
    public static string Markdown(IReadOnlyList<CaseResults> cases, int seed)
    {
        var cells = cases
            .Where(c => c.Profiles.Count > 0)
            .Select(c => (Cell: ProfileReport.CellOf(c.Parameters), c.PaymentsPerInvocation, Cost: c.ProfilingCost()))
            .Where(c => c.Cost.SampledMs.Count > 0 && c.Cost.UnsampledMs.Count > 0)
            .GroupBy(c => (c.Cell, c.PaymentsPerInvocation))
            .OrderBy(g => g.Key.Cell, StringComparer.Ordinal)
            .ToList();
        if (cells.Count == 0)
        {
            return "";
        }
        var text = new StringBuilder("## What sampling cost\n\n");
        text.Append(
                "Sampled against unsampled invocations of the same topologies (means of their means; ratio and 95 % interval paired by topology). "
            )
            .Append(
                "The BenchmarkDotNet tables and comparisons of a profiled run include the sampled invocations: publish figures from a run without --profile.\n\n"
            );
        text.Append(
            "| case | topologies | ms per invocation unsampled → sampled | ratio (95 %) | payments/s unsampled → sampled | node CPU ms/payment unsampled → sampled | ratio (95 %) |\n"
        );
        text.Append("|---|---:|---|---|---|---|---|\n");
        foreach (var cell in cells)
        {
            var unsampled = cell.Select(c => c.Cost.UnsampledMs).ToList();
            var sampled = cell.Select(c => c.Cost.SampledMs).ToList();
            var time = TopologyComparison.Compare(unsampled, sampled, paired: true, seed);
            var cpuUnsampled = cell.Select(c => c.Cost.UnsampledCpuMs).ToList();
            var cpuSampled = cell.Select(c => c.Cost.SampledCpuMs).ToList();
            var hasCpu = cpuUnsampled.All(c => c.Count > 0) && cpuSampled.All(c => c.Count > 0);
            var cpu = hasCpu ? TopologyComparison.Compare(cpuUnsampled, cpuSampled, paired: true, seed) : null;
            double Mean(IEnumerable<IReadOnlyList<double>> lists) =>
                lists.Where(l => l.Count > 0).Select(l => l.Average()).DefaultIfEmpty(double.NaN).Average();
            var perInvocation = cell.Key.PaymentsPerInvocation;
            text.Append(
                    Invariant(
                        $"| {cell.Key.Cell} | {cell.Count()} | {Mean(unsampled):0.0} → {Mean(sampled):0.0} | {Ratio(time)} | "
                    )
                )
                .Append(
                    Invariant(
                        $"{perInvocation * 1000 / Mean(unsampled):0.0} → {perInvocation * 1000 / Mean(sampled):0.0} | "
                    )
                )
                .Append(
                    hasCpu
                        ? Invariant($"{Mean(cpuUnsampled):0.0} → {Mean(cpuSampled):0.0} | {Ratio(cpu!)} |\n")
                        : "- | - |\n"
                );
        }
        text.Append('\n');
        return text.ToString();
    }

    private static string Ratio(RatioInterval interval) =>
        interval.HasInterval
            ? Invariant($"{interval.Ratio:0.000} ({interval.Low:0.000} – {interval.High:0.000})")
            : Invariant($"{interval.Ratio:0.000}");

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
