using Lightning.Bench.Csv;
using Lightning.Bench.Docker;
using Lightning.Bench.Reports;
using Lightning.Bench.Tests.Support;

namespace Lightning.Bench.Tests;

/// <summary>The workloads against real Core Lightning and bitcoind images named by environment variables.</summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class WorkloadEndToEndTests
{
    [SkippableFact]
    public async Task Payments_that_fail_at_the_payee_come_back_from_it_as_unknown_and_are_counted_as_expected_not_as_errors()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-fail-").FullName;

        var run = await HarnessProcess.RunAsync(
        [
            "AlicePaysBob", "--workload", "fail-at-payee",
            "--concurrency", "1,4", "--iterations", "3", "--warmups", "1", "--topologies", "1",
            "--cln-image", cln, "--bitcoind-image", bitcoind, "--no-pull", "--results", results,
        ], TimeSpan.FromMinutes(20));

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        // (1 warmup + 3 measured invocations) × (1 + 4) attempts, each once.
        Assert.Equal(20, rows.Count);
        Assert.Equal(20, rows.Select(r => r["payment_id"]).Distinct().Count());
        Assert.All(rows, r =>
        {
            Assert.Equal("failed", r["outcome"]);
            Assert.Equal("true", r["expected"]);
            // xpay's final failure: the payee said it does not know the payment.
            Assert.Contains("failed with 203", r["error"]);
            Assert.Contains("incorrect_or_unknown_payment_details", r["error"], StringComparison.OrdinalIgnoreCase);
            Assert.EndsWith("Workload=fail-at-payee", r["case"]);
        });
        // The attempts' spans on the payer are joined to them (the harness's xpay id).
        Assert.All(rows.Where(r => r["phase"] == "measured"), r => Assert.Contains("jsonrpc:injectpaymentonion=", r["span_breakdown_ms"]));

        var table = await File.ReadAllTextAsync(Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single());
        Assert.Contains("Attempts/s", table);
        Assert.Contains("CPU ms/attempt", table);
        Assert.Matches(@"(?m)^\| xpay \(deleted invoice\) +\|", table);
        using var summary = System.Text.Json.JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json")));
        foreach (var c in summary.RootElement.GetProperty("cases").EnumerateArray())
        {
            Assert.Equal(0, c.GetProperty("failed").GetInt32());
            Assert.True(c.GetProperty("payments_per_second").GetDouble() > 0);
            Assert.True(c.GetProperty("cpu_ms_per_payment").GetDouble() > 0);
            Assert.Equal("attempt", c.GetProperty("noun").GetString());
        }
        var runId = Path.GetFileName(runDir)[..^"-AlicePaysBob".Length];
        using var engine = new DockerEngine();
        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
    }
}
