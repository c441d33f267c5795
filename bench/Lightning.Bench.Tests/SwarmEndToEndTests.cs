using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Tests.Support;

namespace Lightning.Bench.Tests;

/// <summary>
/// `--swarm` with real Core Lightning and bitcoind images on this engine as a single-node swarm: stacks, the agent's
/// relay of RPC, spans and costs, the gate; nothing left after the run, after Ctrl+C and after kill -9 (at the next start).
/// </summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class SwarmEndToEndTests(SingleNodeSwarm swarm) : IClassFixture<SingleNodeSwarm>
{
    private static string Harness => Path.Combine(AppContext.BaseDirectory, "Lightning.Bench.dll");

    [SkippableFact]
    public async Task A_swarm_comparison_pays_through_the_agent_with_every_span_and_cost_and_records_each_topologys_host()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        using var engine = new DockerEngine();
        await swarm.EnsureAsync(engine);
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-swarm-").FullName;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;

        var run = await ProcessRunner.RunAsync("dotnet",
        [
            Harness, "AlicePaysBob", "--swarm", "--profile", "--build", $"a={cln}", "--build", $"b={cln}",
            "--concurrency", "10", "--iterations", "2", "--warmups", "1", "--topologies", "1",
            "--bitcoind-image", bitcoind, "--no-pull", "--results", results, "--work-dir", work,
        ], TimeSpan.FromMinutes(20));

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(25)}");
        var host = (await Swarm.SwarmManager.RequireAsync(engine)).Node.Hostname;
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = (await File.ReadAllLinesAsync(Path.Combine(runDir, "payments.csv"))).Skip(1).ToList();
        // Two arms × (1 warmup + 2 measured invocations, each arm's also made in the other's case) × 10 payments, every one paid.
        Assert.NotEmpty(rows);
        Assert.All(rows, r => Assert.Contains(",succeeded,", r));
        // Every measured payment is joined to its spans on the payer, relayed by the agent.
        Assert.All(rows.Where(r => r.Contains(",measured,")), r => Assert.Contains("jsonrpc:injectpaymentonion=", r));
        Assert.Contains("| alice | jsonrpc:injectpaymentonion |", await File.ReadAllTextAsync(Path.Combine(runDir, "span-summary.md")));
        // No span lost or dropped on the way through the agent.
        Assert.Matches(@"spans alice \d+, bob \d+", run.StandardOutput);
        Assert.DoesNotContain("dropped)", run.StandardOutput);

        var topologies = (await File.ReadAllLinesAsync(Path.Combine(runDir, "topologies.csv"))).ToList();
        Assert.EndsWith(",host", topologies[0]);
        Assert.All(topologies.Skip(1), r => Assert.EndsWith("," + host, r));
        // CPU and storage per payment, read through the agent from the nodes' cgroups on their host.
        foreach (var metric in new[] { ",CPU/payment,ms,", ",storage/payment,KB," })
        {
            Assert.All(topologies.Where(r => r.Contains(metric)), r =>
                Assert.True(double.Parse(r[(r.IndexOf(metric, StringComparison.Ordinal) + metric.Length)..].Split(',')[0], System.Globalization.CultureInfo.InvariantCulture) > 0, r));
            Assert.Equal(2, topologies.Count(r => r.Contains(metric)));
        }
        var manifest = await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"));
        Assert.Contains("\"swarm\"", manifest);
        Assert.Contains($"\"host\": \"{host}\"", manifest);
        Assert.Contains("swarm: 1 host(s)", run.StandardOutput);
        Assert.True(File.Exists(Path.Combine(Assert.Single(Directory.GetDirectories(Path.Combine(runDir, "cases"), "Build-a-*")), "stack.yml")));
        // Profiles recorded by the agent (perf in a helper container on the nodes' host) and folded there: every node's
        // stacks with Core Lightning's own functions named, flame graphs made from them as on one host.
        foreach (var node in new[] { "alice", "bob" })
        {
            var folded = Directory.GetFiles(Path.Combine(runDir, "profiles"), $"{node}.folded", SearchOption.AllDirectories);
            Assert.NotEmpty(folded);
            var text = await File.ReadAllTextAsync(folded[0]);
            Assert.Contains("lightningd;", text);
            Assert.Contains(";io_loop", text);
            Assert.Contains($"profile: {node}, Build=a", run.StandardOutput);
        }
        Assert.DoesNotContain("no profiles", run.StandardOutput);
        Assert.NotEmpty(Directory.GetFiles(Path.Combine(runDir, "profiles"), "*.svg", SearchOption.AllDirectories));

        var runId = Path.GetFileName(runDir)[..^"-AlicePaysBob".Length];
        await AssertNothingLeftAsync(engine, runId, work);
    }

    [SkippableFact]
    public async Task Ctrl_c_and_kill_9_of_a_swarm_run_leave_nothing_once_the_next_run_has_started()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        using var engine = new DockerEngine();
        await swarm.EnsureAsync(engine);
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-swarm-stop-").FullName;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;
        string[] Arguments() =>
        [
            "AlicePaysBob", "--swarm", "--profile", "--concurrency", "2", "--iterations", "500", "--warmups", "0", "--topologies", "1",
            "--cln-image", cln, "--bitcoind-image", bitcoind, "--no-pull", "--results", results, "--work-dir", work,
        ];

        using (var interrupted = HarnessProcess.Start(Arguments()))
        {
            await interrupted.WaitForOutputAsync("topology ready, benchmarking", TimeSpan.FromMinutes(5));
            await Task.Delay(TimeSpan.FromSeconds(3));
            await interrupted.SignalAsync("INT");
            Assert.Equal(130, await interrupted.WaitForExitAsync(TimeSpan.FromSeconds(120)));
            Assert.DoesNotContain("   at ", interrupted.Output);
            await AssertNothingLeftAsync(engine, interrupted.RunId!, work);
        }

        string killedRun;
        using (var killed = HarnessProcess.Start(Arguments()))
        {
            await killed.WaitForOutputAsync("topology ready, benchmarking", TimeSpan.FromMinutes(5));
            killedRun = killed.RunId!;
            // Its nodes' perf recordings run in helper containers the agent made: the kill leaves them too.
            Assert.Contains(await engine.ListContainersAsync($"{RunLabels.Run}={killedRun}"), c => c.Name.StartsWith("lnbench-perf-", StringComparison.Ordinal));
            await killed.SignalAsync("KILL");
            await killed.WaitForExitAsync(TimeSpan.FromSeconds(30));
        }
        Assert.NotEmpty(await engine.Swarm.ListServicesAsync($"{RunLabels.Run}={killedRun}"));
        // The next run's start sweeps the killed run (its owner is gone), then stops at an image this engine lacks.
        var next = await ProcessRunner.RunAsync("dotnet",
            [Harness, "AlicePaysBob", "--swarm", "--cln-image", "lnbench-test/absent:1", "--bitcoind-image", bitcoind, "--no-pull", "--results", results, "--work-dir", work],
            TimeSpan.FromMinutes(3));
        Assert.Equal(1, next.ExitCode);
        await AssertNothingLeftAsync(engine, killedRun, work);
    }

    private static async Task AssertNothingLeftAsync(DockerEngine engine, string runId, string work)
    {
        await SwarmLeftovers.AssertNoneAsync(engine, $"{RunLabels.Run}={runId}");
        Assert.Empty(Directory.GetDirectories(work));
    }
}
