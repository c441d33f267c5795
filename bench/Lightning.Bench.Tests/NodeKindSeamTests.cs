using System.Text.Json;
using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Reports;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Tests.Support.StandIn;
using Lightning.Bench.Tests.Support;

namespace Lightning.Bench.Tests;

/// <summary>
/// The node-kind seam carries a whole run: a test-only kind whose nodes are busybox scripts (no Core Lightning code, no
/// Core Lightning image) goes through setup, payments and reports like Core Lightning does, on the real engine.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class NodeKindSeamTests : IDisposable
{
    private readonly string work = Directory.CreateTempSubdirectory("lnb-").FullName;
    private readonly string results = Directory.CreateTempSubdirectory("lnbench-results-").FullName;
    private readonly string fragments = Directory.CreateTempSubdirectory("lnbench-fragments-").FullName;

    [SkippableFact]
    public async Task A_stand_in_node_kind_carries_an_AlicePaysBob_run_through_setup_payments_and_reports()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        File.Copy(Path.Combine(ComposeFragments.DefaultDirectory, ComposeFragments.BitcoindFile), Path.Combine(fragments, ComposeFragments.BitcoindFile));
        await File.WriteAllTextAsync(Path.Combine(fragments, StandInKind.Fragment), StandInKind.FragmentYaml);
        var kinds = NodeKindCatalog.Default.With(new StandInKind());

        // In-process, on the thread pool (no test synchronization context under the harness's blocking boundary).
        var exit = await Task.Run(() => Program.Run(
        [
            "AlicePaysBob", "--build", $"standin={StandInKind.KindName}={FakeNodeImage.StandIn}", "--bitcoind-image", FakeNodeImage.StandIn,
            "--no-pull", "--concurrency", "3", "--warmups", "1", "--iterations", "4", "--traces", "off",
            "--results", results, "--work-dir", work, "--setup-timeout", "60",
        ], kinds, fragments));

        Assert.Equal(0, exit);
        var run = Assert.Single(Directory.GetDirectories(results));
        // Setup went through the seam: the stand-in nodes funded, opened and announced their channel, then paid.
        var payments = File.ReadAllLines(Path.Combine(run, PaymentCsv.FileName)).Skip(1).ToList();
        Assert.Equal((1 + 4) * 3, payments.Count);
        Assert.All(payments, p => Assert.Contains(",succeeded,", p));
        Assert.Equal(4 * 3, payments.Count(p => p.Contains(",measured,", StringComparison.Ordinal)));

        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "summary.json")));
        var figures = Assert.Single(summary.RootElement.GetProperty("cases").EnumerateArray().ToList());
        Assert.Equal("Build=standin, Concurrency=3, Traces=off", figures.GetProperty("case").GetString());
        Assert.True(figures.GetProperty("payments_per_second").GetDouble() > 0);
        Assert.Equal(4, figures.GetProperty("iterations_ms").GetArrayLength());
        Assert.Equal(12, figures.GetProperty("succeeded").GetInt32());

        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(run, "manifest.json")));
        var topology = Assert.Single(manifest.RootElement.GetProperty("cases").EnumerateArray().ToList());
        Assert.Equal(StandInKind.KindName, topology.GetProperty("node_kinds").GetProperty("alice").GetString());
        Assert.Equal("standin-node v1", topology.GetProperty("node_versions").GetProperty("bob").GetString());
        Assert.Contains(manifest.RootElement.GetProperty("images").EnumerateArray(),
            i => i.GetProperty("versions").TryGetProperty("standin-node", out var v) && v.GetString() == "standin-node v1");

        // BenchmarkDotNet's table has the harness's columns, filled from the results model.
        var table = File.ReadAllText(Directory.GetFiles(Path.Combine(run, "results"), "*-report-github.md").Single());
        Assert.Contains("Payments/s", table);
        Assert.Contains("complete", table);
        // The node logs were kept, and the compose file shows the kind's own service.
        Assert.Contains("pay", File.ReadAllText(Path.Combine(run, "cases", "Build-standin-Concurrency-3-Traces-off", "logs", "alice.log")));
        Assert.Contains("standin-node", File.ReadAllText(Path.Combine(run, "cases", "Build-standin-Concurrency-3-Traces-off", "docker-compose.yml")));
    }

    public void Dispose()
    {
        foreach (var directory in new[] { work, results, fragments })
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
