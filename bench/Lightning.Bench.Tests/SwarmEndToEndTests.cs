using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests;

/// <summary>
/// `--swarm` with real Core Lightning and bitcoind images on this engine as a single-node swarm: stacks, the agent's
/// relay of RPC, spans and costs, the gate; nothing left after the run, after Ctrl+C and after kill -9 (at the next start).
/// </summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public class SwarmEndToEndTests(SingleNodeSwarm swarm) : IClassFixture<SingleNodeSwarm>
{
    [SkippableFact]
    public async Task A_swarm_comparison_pays_through_the_agent_with_every_span_and_cost_and_records_each_topologys_host()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        using var engine = new DockerEngine();
        await swarm.EnsureAsync(engine);
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-swarm-").FullName;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--swarm",
                "--profile",
                "--build",
                $"a={cln}",
                "--build",
                $"b={cln}",
                // Six measured invocations: three sampled per arm, about 18 samples per node and arm at 99 Hz (a node takes
                // about 6 ms of CPU per payment at Concurrency=10), enough for lightningd's main loop to be among them.
                "--concurrency",
                "10",
                "--iterations",
                "6",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
                "--work-dir",
                work,
            ],
            TimeSpan.FromMinutes(20)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(25)}");
        var host = (await Swarm.SwarmManager.RequireAsync(engine)).Node.Hostname;
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var rows = (await File.ReadAllLinesAsync(Path.Combine(runDir, "payments.csv"))).Skip(1).ToList();
        // Two arms (one after the other: profiles pair sequentially) × (1 warmup + 6 measured invocations) × 10 payments, every one paid.
        Assert.NotEmpty(rows);
        Assert.All(rows, r => Assert.Contains(",succeeded,", r));
        // Every measured payment is joined to its spans on the payer, relayed by the agent.
        Assert.All(rows.Where(r => r.Contains(",measured,")), r => Assert.Contains("jsonrpc:injectpaymentonion=", r));
        Assert.Contains(
            "| alice | jsonrpc:injectpaymentonion |",
            await File.ReadAllTextAsync(Path.Combine(runDir, "span-summary.md"))
        );
        // No span lost or dropped on the way through the agent.
        Assert.Matches(@"spans alice \d+, bob \d+", run.StandardOutput);
        Assert.DoesNotContain("dropped)", run.StandardOutput);

        var topologies = (await File.ReadAllLinesAsync(Path.Combine(runDir, "topologies.csv"))).ToList();
        Assert.EndsWith(",host", topologies[0]);
        Assert.All(topologies.Skip(1), r => Assert.EndsWith("," + host, r));
        // CPU and storage per payment, read through the agent from the nodes' cgroups on their host.
        foreach (var metric in new[] { ",CPU/payment,ms,", ",storage/payment,KB," })
        {
            Assert.All(
                topologies.Where(r => r.Contains(metric)),
                r =>
                    Assert.True(
                        double.Parse(
                            r[(r.IndexOf(metric, StringComparison.Ordinal) + metric.Length)..].Split(',')[0],
                            System.Globalization.CultureInfo.InvariantCulture
                        ) > 0,
                        r
                    )
            );
            Assert.Equal(2, topologies.Count(r => r.Contains(metric)));
        }
        var manifest = await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"));
        Assert.Contains("\"swarm\"", manifest);
        Assert.Contains($"\"host\": \"{host}\"", manifest);
        Assert.Contains("swarm: 1 host(s)", run.StandardOutput);
        Assert.True(
            File.Exists(
                Path.Combine(
                    Assert.Single(Directory.GetDirectories(Path.Combine(runDir, "cases"), "Build-a-*")),
                    "stack.yml"
                )
            )
        );
        // Profiles recorded by the agent (perf in a helper container on the nodes' host) and folded there: every node's
        // stacks with Core Lightning's own functions named, flame graphs made from them as on one host.
        foreach (var node in new[] { "alice", "bob" })
        {
            var folded = Directory.GetFiles(
                Path.Combine(runDir, "profiles"),
                $"{node}.folded",
                SearchOption.AllDirectories
            );
            Assert.NotEmpty(folded);
            var text = string.Concat(folded.Select(File.ReadAllText));
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
                "AlicePaysBob",
                "--swarm",
                "--profile",
                "--concurrency",
                "2",
                "--iterations",
                "500",
                "--warmups",
                "0",
                "--topologies",
                "1",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
                "--work-dir",
                work,
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
            Assert.Contains(
                await RunResources.Of(engine, killedRun).ContainersAsync(),
                c => c.Name.StartsWith("lnbench-perf-", StringComparison.Ordinal)
            );
            await killed.SignalAsync("KILL");
            await killed.WaitForExitAsync(TimeSpan.FromSeconds(30));
        }
        Assert.NotEmpty(await RunResources.Of(engine, killedRun).ServicesAsync());
        // The next run's start sweeps the killed run (its owner is gone), then stops at an image this engine lacks.
        var next = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--swarm",
                "--cln-image",
                "lnbench-test/absent:1",
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
                "--work-dir",
                work,
            ],
            TimeSpan.FromMinutes(3)
        );
        Assert.Equal(1, next.ExitCode);
        await AssertNothingLeftAsync(engine, killedRun, work);
    }

    [SkippableFact]
    public async Task Two_shares_side_by_side_measure_their_pairs_at_once_and_every_pair_is_judged_together_then_ctrl_c_stops_both()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        using var engine = new DockerEngine();
        await swarm.EnsureAsync(engine);
        var host = (await Swarm.SwarmManager.RequireAsync(engine)).Node.Hostname;
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-sbs-").FullName;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--swarm",
                "--side-by-side",
                "2",
                "--build",
                $"a={cln}",
                "--build",
                $"b={cln}",
                "--concurrency",
                "1",
                "--iterations",
                "2",
                "--warmups",
                "1",
                "--topologies",
                "4",
                "--seed",
                "17",
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
                "--work-dir",
                work,
            ],
            TimeSpan.FromMinutes(20)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(25)}");
        Assert.Contains($"[share 1 on {host}]", run.StandardOutput);
        Assert.Contains($"[share 2 on {host}]", run.StandardOutput);
        Assert.Contains("side by side: 2 shares on 1 host(s): 4 topology pairs in", run.StandardOutput);
        var runDir = Assert.Single(Directory.GetDirectories(results));
        using var manifest = System.Text.Json.JsonDocument.Parse(
            await File.ReadAllTextAsync(Path.Combine(runDir, Lightning.Bench.Swarm.SideBySideRun.ManifestFile))
        );
        var shares = manifest.RootElement.GetProperty("shares").EnumerateArray().ToList();
        Assert.Equal(
            [(1, 2), (3, 4)],
            shares.Select(s => (s.GetProperty("first_topology").GetInt32(), s.GetProperty("last_topology").GetInt32()))
        );
        Assert.All(
            shares,
            s =>
                Assert.Equal(
                    (0, 2, host),
                    (
                        s.GetProperty("exit_code").GetInt32(),
                        s.GetProperty("pairs").GetInt32(),
                        s.GetProperty("host").GetString()
                    )
                )
        );
        // Both shares measured at once: each one started before the other ended.
        var windows = new List<(DateTimeOffset Start, DateTimeOffset End)>();
        var runIds = new List<string>();
        foreach (var share in shares)
        {
            var shareRun = Path.Combine(runDir, share.GetProperty("run_folder").GetString()!);
            Assert.True(File.Exists(Path.Combine(shareRun, "payments.csv")));
            var log = await File.ReadAllTextAsync(Path.Combine(Path.GetDirectoryName(shareRun)!, "harness.log"));
            Assert.Contains($"--topology-range", await File.ReadAllTextAsync(Path.Combine(shareRun, "manifest.json")));
            runIds.Add(Path.GetFileName(shareRun)[..^"-AlicePaysBob".Length]);
            var times = (await File.ReadAllLinesAsync(Path.Combine(shareRun, "payments.csv")))
                .Skip(1)
                .Select(l => l.Split(','))
                .ToList();
            Assert.NotEmpty(times);
            Assert.Contains("swarm: 1 host(s)", log);
            using var shareManifest = System.Text.Json.JsonDocument.Parse(
                await File.ReadAllTextAsync(Path.Combine(shareRun, "manifest.json"))
            );
            windows.Add(
                (
                    shareManifest.RootElement.GetProperty("started").GetDateTimeOffset(),
                    shareManifest.RootElement.GetProperty("ended").GetDateTimeOffset()
                )
            );
        }
        Assert.True(windows[0].Start < windows[1].End && windows[1].Start < windows[0].End, string.Join("; ", windows));
        // Every pair judged together, paired within its host: mean time of b against a over all 4 topologies.
        var comparisons = await File.ReadAllLinesAsync(Path.Combine(runDir, "comparisons.csv"));
        Assert.Contains(comparisons, l => l.Contains("mean time", StringComparison.Ordinal));
        var topologies = (await File.ReadAllLinesAsync(Path.Combine(runDir, "topologies.csv"))).Skip(1).ToList();
        // case (quoted), cell, build, traces, topology, …, host
        Assert.Equal(
            ["1", "2", "3", "4"],
            topologies
                .Select(r => r[(r.IndexOf("\",", StringComparison.Ordinal) + 2)..].Split(',')[3])
                .Distinct()
                .Order()
        );
        Assert.All(topologies, r => Assert.EndsWith("," + host, r));
        Assert.Contains("| mean time |", await File.ReadAllTextAsync(Path.Combine(runDir, "comparison.md")));
        foreach (var id in runIds)
        {
            await AssertNothingLeftAsync(engine, id, work);
        }

        // Ctrl+C of the run stops both shares, which keep their results and leave nothing.
        var stopped = Directory.CreateTempSubdirectory("lnbench-e2e-sbs-stop-").FullName;
        using (
            var interrupted = HarnessProcess.Start(
                "AlicePaysBob",
                "--swarm",
                "--side-by-side",
                "2",
                "--concurrency",
                "2",
                "--iterations",
                "500",
                "--warmups",
                "0",
                "--topologies",
                "2",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                stopped,
                "--work-dir",
                work
            )
        )
        {
            await interrupted.WaitForOutputAsync("[share 1 on", TimeSpan.FromMinutes(2));
            var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(5);
            while (
                System.Text.RegularExpressions.Regex.Matches(interrupted.Output, "topology ready, benchmarking").Count
                < 2
            )
            {
                Assert.True(DateTime.UtcNow < deadline, interrupted.Output);
                await Task.Delay(200);
            }
            await interrupted.SignalAsync("INT");
            Assert.Equal(130, await interrupted.WaitForExitAsync(TimeSpan.FromSeconds(180)));
            var ids = System
                .Text.RegularExpressions.Regex.Matches(
                    interrupted.Output,
                    @"\] // lnbench \[[^\]]*\] run (\S+): results in"
                )
                .Select(m => m.Groups[1].Value)
                .Distinct()
                .ToList();
            Assert.Equal(2, ids.Count);
            foreach (var id in ids)
            {
                await AssertNothingLeftAsync(engine, id, work);
            }
            Assert.True(
                File.Exists(
                    Path.Combine(
                        Assert.Single(Directory.GetDirectories(stopped)),
                        Lightning.Bench.Swarm.SideBySideRun.ManifestFile
                    )
                )
            );
        }
    }

    private static async Task AssertNothingLeftAsync(DockerEngine engine, string runId, string work)
    {
        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
        Assert.Empty(Directory.GetDirectories(work));
    }
}
