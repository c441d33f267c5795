using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Running;

namespace Lightning.Bench.Tests;

/// <summary>The whole product against real Core Lightning and bitcoind images named by environment variables.</summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class AlicePaysBobEndToEndTests
{
    [SkippableFact]
    public async Task A_run_pays_records_every_payment_reports_payments_per_second_and_leaves_nothing_behind()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-").FullName;

        var run = await ProcessRunner.RunAsync("dotnet",
        [
            Path.Combine(AppContext.BaseDirectory, "Lightning.Bench.dll"), "AlicePaysBob",
            "--concurrency", "1,3", "--iterations", "2", "--warmups", "1",
            "--cln-image", cln, "--bitcoind-image", bitcoind, "--no-pull", "--results", results,
        ], TimeSpan.FromMinutes(20));

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = (await File.ReadAllLinesAsync(Path.Combine(runDir, "payments.csv"))).Skip(1).ToList();
        // (1 warmup + 2 measured invocations) × (1 + 3) payments.
        Assert.Equal(12, rows.Count);
        Assert.All(rows, r => Assert.Contains(",succeeded,", r));
        Assert.Equal(8, rows.Count(r => r.Contains(",measured,")));

        var report = Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single();
        var table = await File.ReadAllTextAsync(report);
        Assert.Contains("Payments/s", table);
        Assert.Contains("p95 ms", table);
        foreach (var caseFolder in new[] { "Concurrency-1-Traces-on", "Concurrency-3-Traces-on" })
        {
            Assert.True(File.Exists(Path.Combine(runDir, "cases", caseFolder, "docker-compose.yml")));
            Assert.True(File.Exists(Path.Combine(runDir, "cases", caseFolder, "logs", "alice.log")));
            Assert.True(File.Exists(Path.Combine(runDir, "cases", caseFolder, "zipkin.json")));
        }

        // Every measured payment is joined to its spans on the payer, with injectpaymentonion among its steps.
        Assert.All(rows.Where(r => r.Contains(",measured,")), r => Assert.Contains("jsonrpc:injectpaymentonion=", r));
        var summary = await File.ReadAllTextAsync(Path.Combine(runDir, "span-summary.md"));
        Assert.Contains("| alice | jsonrpc:injectpaymentonion |", summary);
        Assert.Contains("| bob | lightningd/jsonrpc:invoice |", summary);
        foreach (var plot in new[] { "payments-timeline.png", "spans-timeline.png", "span-breakdown.png" })
        {
            Assert.True(new FileInfo(Path.Combine(runDir, plot)).Length > 10_000, plot);
        }
        var runId = Path.GetFileName(runDir)[..^"-AlicePaysBob".Length];
        using var engine = new DockerEngine();
        Assert.Empty(await engine.ListContainersAsync($"{RunLabels.Run}={runId}"));
        Assert.Empty(await engine.ListNetworksAsync($"{RunLabels.Run}={runId}"));
    }
}
