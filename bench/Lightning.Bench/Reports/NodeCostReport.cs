using System.Globalization;
using System.Text;
using Lightning.Bench.Results;

namespace Lightning.Bench.Reports;

/// <summary>
/// What each node cost per case: CPU per payment (idle subtracted), storage writes per payment, peak memory and resident
/// memory at the end, each the median over the case's topologies, one row per case (without its Topology) and node.
/// </summary>
internal static class NodeCostReport
{
    public static string Markdown(IReadOnlyList<CaseResults> cases)
    {
        var rows = cases
            .Where(c => c.Figures is not null)
            .SelectMany(c =>
                Nodes(c).Select(node => (Cell: c.Id.KeyWithout(CaseId.TopologyName), Node: node, Figures: c.Figures!))
            )
            .GroupBy(r => (r.Cell, r.Node))
            .ToList();
        if (rows.Count == 0 || rows.All(g => g.All(r => r.Figures.Costs is null && r.Figures.Cpu is null)))
        {
            return "";
        }
        var text = new StringBuilder();
        text.AppendLine("## What each node cost per payment");
        text.AppendLine();
        text.AppendLine(
            "Medians over the case's topologies (measured iterations; cgroups of each node's container). Storage: bytes its processes wrote (database, logs). Peak: its cgroup's high-water mark, page cache included; RSS: its anonymous memory after the last iteration. CPU "
                + $"{CpuPerPayment.IdleNoise}: the node spent no more than its idle rate, measured apart from the payments, says it spends doing nothing (an idle rate subtracted beyond zero is no negative cost)."
        );
        text.AppendLine();
        text.AppendLine("| case | node | topologies | CPU ms/payment | storage KB/payment | peak MB | RSS MB at end |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---:|");
        foreach (var group in rows)
        {
            double Median(Func<CaseFigures, double?> pick) =>
                CaseFigures.MedianOfKnown(group.Select(r => pick(r.Figures)));
            var node = group.Key.Node;
            text.AppendLine(
                $"| {group.Key.Cell} | {node} | {group.Count()} | {Cpu(Median(f => f.Cpu?.ByNode.GetValueOrDefault(node, double.NaN)))} | "
                    + $"{F(Median(f => f.Costs?.WrittenKbByNode.GetValueOrDefault(node, double.NaN)))} | {F(Median(f => f.Costs?.PeakMbByNode.GetValueOrDefault(node, double.NaN)))} | "
                    + $"{F(Median(f => f.Costs?.EndRssMbByNode.GetValueOrDefault(node, double.NaN)))} |"
            );
        }
        text.AppendLine();
        return text.ToString();
    }

    /// <summary>With --probe: each node's answers to the probe per case, the medians over the case's topologies.</summary>
    public static string ProbeMarkdown(IReadOnlyList<CaseResults> cases)
    {
        var rows = cases
            .Where(c => c.Figures?.Probe is not null)
            .SelectMany(c =>
                c.Figures!.Probe!.ByNode.Select(n =>
                    (Cell: c.Id.KeyWithout(CaseId.TopologyName), Node: n.Key, Figures: n.Value)
                )
            )
            .GroupBy(r => (r.Cell, r.Node))
            .OrderBy(g => g.Key.Cell, StringComparer.Ordinal)
            .ThenBy(g => g.Key.Node, StringComparer.Ordinal)
            .ToList();
        if (rows.Count == 0)
        {
            return "";
        }
        var text = new StringBuilder();
        text.AppendLine("## How fast each node answered while it worked");
        text.AppendLine();
        text.AppendLine(
            "The probe (--probe) asked each node a cheap RPC (Core Lightning: help for one command; LND: GetInfo) at a fixed interval, one call at a time, alongside the workload. Latencies over the measured invocations; the longest stall is the longest time from one answer to the next over the whole case. Medians over the case's topologies; unanswered: calls summed."
        );
        text.AppendLine();
        text.AppendLine(
            "| case | node | topologies | calls | unanswered | p50 ms | p99 ms | max ms | longest stall ms |"
        );
        text.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var group in rows)
        {
            double Median(Func<ProbeNodeFigures, double> pick) =>
                CaseFigures.MedianOfKnown(group.Select(r => (double?)pick(r.Figures)));
            text.AppendLine(
                $"| {group.Key.Cell} | {group.Key.Node} | {group.Count()} | {group.Sum(r => r.Figures.Calls)} | {group.Sum(r => r.Figures.Unanswered)} | "
                    + $"{F(Median(f => f.P50Ms))} | {F(Median(f => f.P99Ms))} | {F(Median(f => f.MaxMs))} | {F(Median(f => f.LongestStallMs))} |"
            );
        }
        text.AppendLine();
        return text.ToString();
    }

    private static IEnumerable<string> Nodes(CaseResults c) =>
        (c.Figures?.Cpu?.ByNode.Keys ?? [])
            .Concat(c.Figures?.Costs?.PeakMbByNode.Keys ?? [])
            .Distinct()
            .Order(StringComparer.Ordinal);

    /// <summary>A node's CPU per payment: a figure, or <see cref="CpuPerPayment.IdleNoise"/> where the idle rate was subtracted to zero or beyond.</summary>
    internal static string Cpu(double ms) => CpuPerPayment.IsWithinIdleNoise(ms) ? CpuPerPayment.IdleNoise : F(ms);

    /// <summary>A figure of the cost tables: whole from 100, else one decimal; "-" when unknown.</summary>
    internal static string F(double value) =>
        double.IsFinite(value) ? value.ToString(value >= 100 ? "0" : "0.0", CultureInfo.InvariantCulture) : "-";
}
