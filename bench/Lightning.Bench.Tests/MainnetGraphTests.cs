using System.Text.Json;
using Lightning.Bench.Csv;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests;

/// <summary>
/// MainnetGraph's input refused in one line before anything starts (a file not in the format, a node map of another
/// snapshot, an index the snapshot does not have), and, against real images, a share of the graph loaded into the
/// payer, asked routes and paid through.
/// </summary>
[Collection(DockerCollection.Name)]
public class MainnetGraphTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-graph-").FullName;

    [Fact]
    [Trait("Category", "Unit")]
    public async Task MainnetGraph_without_a_graph_and_a_graph_on_another_scenario_are_refused_in_one_line()
    {
        var results = Results();

        var without = await HarnessProcess.RunAsync(["MainnetGraph", "--results", results], TimeSpan.FromMinutes(2));
        var elsewhere = await HarnessProcess.RunAsync(
            ["AlicePaysBob", "--graph", "x.compressed", "--results", results],
            TimeSpan.FromMinutes(2)
        );
        var routesElsewhere = await HarnessProcess.RunAsync(
            ["AlicePaysBob", "--workload", "routes", "--results", results],
            TimeSpan.FromMinutes(2)
        );

        Assert.Equal(
            (
                2,
                "lnbench: error: MainnetGraph needs --graph PATH: Core Lightning's tests/data/gossip-store-2026-02-03.compressed (in its checkout)"
            ),
            (without.ExitCode, without.StandardError.Trim())
        );
        Assert.Equal(2, elsewhere.ExitCode);
        Assert.Contains(
            "--graph gives MainnetGraph's payer the mainnet graph; AlicePaysBob takes none",
            elsewhere.StandardError
        );
        Assert.Equal(2, routesElsewhere.ExitCode);
        Assert.Contains(
            "--graph writes into a stopped node's folder on this host: run it without --swarm",
            Assert
                .Throws<Lightning.Bench.Progress.UsageException>(() =>
                    Lightning.Bench.Options.OptionParser.Parse(["MainnetGraph", "--graph", "g.compressed", "--swarm"])
                )
                .Message
        );
        Assert.Contains(
            "--workload routes does not fit AlicePaysBob: routes asks routes into the mainnet graph: run it on MainnetGraph with --graph PATH",
            routesElsewhere.StandardError
        );
        Assert.Empty(Directory.GetDirectories(results));
    }

    [SkippableFact]
    [Trait("Category", "Unit")]
    public async Task A_file_not_in_the_format_a_map_of_another_snapshot_and_a_missing_index_stop_the_run_in_one_line_before_anything_starts()
    {
        var (snapshot, map) = Requirements.GraphData();
        var results = Results();
        var text = Path.Combine(directory, "notes.compressed");
        await File.WriteAllTextAsync(text, "not a graph");
        // The real snapshot beside the map of a smaller graph (its first 100 lines).
        var mismatched = Directory.CreateDirectory(Path.Combine(directory, "mismatched")).FullName;
        File.Copy(snapshot, Path.Combine(mismatched, "gossip-store-2026-02-03.compressed"));
        await WriteXzAsync(map, Path.Combine(mismatched, "gossip-store-2026-02-03-node-map.xz"), lines: 100);

        var notGraph = await RefusedAsync(["MainnetGraph", "--graph", text, "--results", results]);
        var wrongMap = await RefusedAsync([
            "MainnetGraph",
            "--graph",
            Path.Combine(mismatched, "gossip-store-2026-02-03.compressed"),
            "--results",
            results,
        ]);
        var noIndex = await RefusedAsync([
            "MainnetGraph",
            "--graph",
            snapshot,
            "--graph-node",
            "17324",
            "--results",
            results,
        ]);
        var noFile = await RefusedAsync([
            "MainnetGraph",
            "--graph",
            Path.Combine(directory, "absent.compressed"),
            "--results",
            results,
        ]);

        Assert.Matches(
            "^lnbench: error: --graph .*notes.compressed is not a gzip file: .*; give a GOSSMAP_COMPRESSv1 snapshot",
            notGraph
        );
        Assert.Matches(
            "^lnbench: error: --graph: the node map .* does not match gossip-store-2026-02-03.compressed: it names 100 nodes and the snapshot has 17,324: a map of another snapshot",
            wrongMap
        );
        Assert.Equal(
            "lnbench: error: --graph-node 17324: "
                + snapshot
                + " has nodes 0 to 17323; give one of them (default 2134)",
            noIndex
        );
        Assert.Contains("no such file", noFile);
        Assert.Empty(Directory.GetDirectories(results));
    }

    [SkippableFact]
    [Trait("Category", "E2E")]
    public async Task A_share_of_the_graph_is_loaded_into_the_payer_asked_routes_and_paid_through_with_its_queries_seeded()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var (snapshot, _) = Requirements.GraphData();
        var (runDir, run) = await HarnessProcess.RunToResultsAsync(
            "graph",
            [
                "MainnetGraph",
                "--graph",
                snapshot,
                "--graph-percent",
                "5",
                "--workload",
                "routes,pay",
                "--concurrency",
                "3",
                "--iterations",
                "4",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--seed",
                "41",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
            ]
        );
        Assert.Contains("alice: 2,541 channels of the graph", run.StandardOutput);
        var operations = CsvReader.Read(Path.Combine(runDir, PaymentCsv.FileName));
        var queries = operations.Where(o => o["case"].Contains("Workload=routes", StringComparison.Ordinal)).ToList();
        // Every query is counted once, as asked (warmup included): routes found with their parts and fee, or the pathfinder's reason.
        Assert.Equal(5 * 3, queries.Count);
        Assert.All(queries, q => Assert.Equal("true", q["expected"]));
        Assert.Contains(
            queries,
            q => q["outcome"] == "succeeded" && int.Parse(q["parts"]) >= 1 && long.Parse(q["fee_msat"]) >= 0
        );
        Assert.All(queries.Where(q => q["outcome"] == "failed"), q => Assert.Contains("getroutes", q["error"]));
        Assert.All(queries, q => Assert.StartsWith("graph-", q["payee"]));
        // The queries are the manifest's, in its order; the payments to bob crossed the mapped node and all succeeded.
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
        var share = manifest.RootElement.GetProperty("graph").GetProperty("shares")[0];
        Assert.Equal(2_541, share.GetProperty("channels").GetInt32());
        var asked = share
            .GetProperty("queries")
            .EnumerateArray()
            .Take(queries.Count)
            .Select(q => q.GetString()!.Split(':'))
            .ToList();
        Assert.Equal(
            asked.Select(q => (q[0], long.Parse(q[1]) * 1000)),
            queries
                .OrderBy(q => long.Parse(q["payment_id"]))
                .Select(q => (q["payee"].Split(' ')[0]["graph-".Length..], long.Parse(q["amount_msat"])))
        );
        var payments = operations.Except(queries).ToList();
        Assert.Equal(5 * 3, payments.Count);
        Assert.All(payments, p => Assert.Equal(("bob", "succeeded"), (p["payee"], p["outcome"])));
        var comparison = await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md"));
        Assert.Contains("restart graph", comparison);
        // The queries split by amount and destination group, in comparison.md and summary.json, from payments.csv's rows;
        // the page plots them and says which store form the payer was given (the default, the harness's).
        Assert.Contains("## Route queries by amount", comparison);
        using var summary = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json")));
        var byAmount = summary
            .RootElement.GetProperty("cases")
            .EnumerateArray()
            .Single(c => c.GetProperty("case").GetString()!.Contains("Workload=routes", StringComparison.Ordinal))
            .GetProperty("routes_by_amount")
            .EnumerateArray()
            .Where(r => r.GetProperty("destinations").GetString() == "all")
            .ToList();
        var measured = queries.Where(q => q["phase"] == "measured").ToList();
        Assert.Equal(
            measured
                .GroupBy(q => long.Parse(q["amount_msat"]) / 1000)
                .OrderBy(g => g.Key)
                .Select(g => (g.Key, g.Count())),
            byAmount.Select(r => (r.GetProperty("amount_sat").GetInt64(), r.GetProperty("queries").GetInt32()))
        );
        Assert.All(measured, q => Assert.Contains(q["destinations"], new[] { "top", "sample" }));
        Assert.True(
            File.Exists(Path.Combine(runDir, "route-amounts.png"))
                || !File.Exists(Path.Combine(runDir, "payments-timeline.png"))
        );
        Assert.StartsWith("harness:", manifest.RootElement.GetProperty("graph").GetProperty("store").GetString());
        Assert.Contains(
            "<dt>graph store</dt><dd>harness:",
            await File.ReadAllTextAsync(Path.Combine(runDir, "report.html"))
        );
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private string Results() =>
        Directory.CreateDirectory(Path.Combine(directory, $"results-{Guid.NewGuid():N}")).FullName;

    private static async Task<string> RefusedAsync(IReadOnlyList<string> arguments)
    {
        var run = await HarnessProcess.RunAsync(arguments, TimeSpan.FromMinutes(2));
        Assert.True(run.ExitCode == 2, $"exit {run.ExitCode}: {run.Tail(10)}");
        var lines = run.StandardError.Trim().Split('\n');
        Assert.Single(lines);
        return lines[0];
    }

    /// <summary>The first <paramref name="lines"/> lines of an xz file, xz-compressed again (with the xz program).</summary>
    private static async Task WriteXzAsync(string source, string target, int lines)
    {
        var psi = new System.Diagnostics.ProcessStartInfo("sh") { RedirectStandardError = true };
        psi.ArgumentList.Add("-c");
        psi.ArgumentList.Add($"xz -dc '{source}' | head -n {lines} | xz -c > '{target}'");
        using var process = System.Diagnostics.Process.Start(psi)!;
        await process.WaitForExitAsync();
        Skip.If(process.ExitCode != 0, "the xz program is needed to make a smaller node map");
    }
}
