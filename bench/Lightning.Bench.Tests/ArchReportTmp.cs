namespace Lightning.Bench.Tests;
public class ArchReportTmp
{
    [Fact]
    public void Report()
    {
        var g = Support.FolderGraph.Of(typeof(Lightning.Bench.Scenarios.ScenarioBenchmark).Assembly.Location);
        var lines = new List<string>();
        lines.Add("mutual pairs: " + g.MutualPairs().Count);
        foreach (var p in g.MutualPairs()) lines.Add($"  {p.A} <-> {p.B}: {string.Join(",", g.Edges[p.A][p.B].Take(4))} | {string.Join(",", g.Edges[p.B][p.A].Take(4))}");
        foreach (var c in g.Cycles()) lines.Add($"cycle {c.Count}: {string.Join(" ", c)}");
        lines.Add("folders: " + g.Folders.Count());
        foreach (var f in g.Folders) lines.Add($"{f} -> {string.Join(" ", g.Edges.TryGetValue(f, out var t) ? t.Keys.OrderBy(x => x) : [])}");
        File.WriteAllLines(Environment.GetEnvironmentVariable("ARCH_OUT") ?? "/tmp/arch/report.txt", lines);
    }
}
