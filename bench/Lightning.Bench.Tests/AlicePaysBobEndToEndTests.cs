using Lightning.Bench.Docker;
using Lightning.Bench.Processes;

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

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--concurrency",
                "1,3",
                "--iterations",
                "2",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(20)
        );

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
        Assert.Contains("complete", table);
        // The Method column, first as BenchmarkDotNet's was, names Core Lightning's payment calls.
        Assert.Matches(@"(?m)^\| Method +\|", table);
        Assert.Matches(@"(?m)^\| invoice\+xpay +\|", table);
        foreach (var concurrency in new[] { 1, 3 })
        {
            var caseFolder = Assert.Single(
                Directory.GetDirectories(
                    Path.Combine(runDir, "cases"),
                    $"*-Concurrency-{concurrency}-Topology-1-Traces-on"
                )
            );
            Assert.True(File.Exists(Path.Combine(caseFolder, "docker-compose.yml")));
            Assert.True(File.Exists(Path.Combine(caseFolder, "logs", "alice.log")));
            Assert.True(File.Exists(Path.Combine(caseFolder, "zipkin.json")));
        }
        Assert.True(File.Exists(runDir + ".zip"));
        Assert.Contains("\"partial\": false", await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));

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
        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
    }

    [SkippableFact]
    public async Task A_profiled_run_names_core_lightning_functions_of_lightningd_its_subdaemons_and_plugins_and_keeps_them_in_the_zip()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        Requirements.Perf();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-profile-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                // 499 Hz over 3 sampled invocations of 10 payments: enough samples that a subdaemon and a plugin are in them.
                "AlicePaysBob",
                "--profile",
                "--profile-frequency",
                "499",
                "--concurrency",
                "10",
                "--iterations",
                "6",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(20)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        var caseFolder = Assert.Single(
            Directory.GetDirectories(Path.Combine(runDir, "profiles"), "*-Topology-1-Traces-on")
        );
        var alice = await File.ReadAllLinesAsync(Path.Combine(caseFolder, "alice.folded"));
        string[] Process(string name) => alice.Where(l => l.StartsWith(name + ";", StringComparison.Ordinal)).ToArray();
        // Named functions (not [unknown]) in lightningd, a subdaemon and a plugin, read from the image through the container.
        Assert.Contains(
            Process("lightningd"),
            l => l.Contains(";main;", StringComparison.Ordinal) && l.Contains(";io_loop", StringComparison.Ordinal)
        );
        Assert.Contains(Process("lightning_channeld"), l => l.Contains(";main;", StringComparison.Ordinal));
        Assert.Contains(
            alice,
            l =>
                (
                    l.StartsWith("cln-xpay;", StringComparison.Ordinal)
                    || l.StartsWith("cln-askrene;", StringComparison.Ordinal)
                ) && l.Contains(";plugin_main;", StringComparison.Ordinal)
        );
        Assert.True(File.Exists(Path.Combine(caseFolder, "bob.folded")));

        var merged = Path.GetFileName(caseFolder).Replace("-Topology-1", "", StringComparison.Ordinal);
        var svg = System.Xml.Linq.XDocument.Load(Path.Combine(runDir, "profiles", merged, "alice.svg"));
        Assert.Contains(
            svg.Descendants().Where(e => e.Name.LocalName == "title"),
            t => t.Value.StartsWith("io_loop (", StringComparison.Ordinal)
        );
        var markdown = await File.ReadAllTextAsync(Path.Combine(runDir, "profiles", "profiles.md"));
        Assert.Contains("## What sampling cost", markdown);
        Assert.Contains("## alice:", markdown);
        var manifest = await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json"));
        Assert.Contains("\"profiling\"", manifest);
        Assert.Contains("alice.folded", manifest);
        using var zip = System.IO.Compression.ZipFile.OpenRead(runDir + ".zip");
        Assert.Contains(
            zip.Entries,
            e => e.FullName.EndsWith($"profiles/{merged}/alice.svg", StringComparison.Ordinal)
        );
        Assert.Contains(
            zip.Entries,
            e => e.FullName.EndsWith($"profiles/{Path.GetFileName(caseFolder)}/alice.folded", StringComparison.Ordinal)
        );
        Assert.DoesNotContain(zip.Entries, e => e.FullName.EndsWith(".perf.data", StringComparison.Ordinal));
    }

    [SkippableFact]
    public async Task An_instruction_run_counts_each_nodes_processes_per_payment_down_to_the_function_and_shows_no_times()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        Requirements.Valgrind();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-ir-").FullName;

        var run = await HarnessProcess.RunAsync(
            [
                "AlicePaysBob",
                "--instructions",
                "--concurrency",
                "1",
                "--iterations",
                "3",
                "--warmups",
                "1",
                "--topologies",
                "1",
                "--cln-image",
                cln,
                "--bitcoind-image",
                bitcoind,
                "--no-pull",
                "--results",
                results,
            ],
            TimeSpan.FromMinutes(20)
        );

        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(15)}");
        var runDir = Assert.Single(Directory.GetDirectories(results));
        using var summary = System.Text.Json.JsonDocument.Parse(
            await File.ReadAllTextAsync(Path.Combine(runDir, "summary.json"))
        );
        var instructions = summary.RootElement.GetProperty("cases")[0].GetProperty("instructions");
        Assert.Equal(3, instructions.GetProperty("payments").GetInt32());
        foreach (var node in new[] { "alice", "bob" })
        {
            // Tens of millions of instructions per payment (68–73 M here), most in lightningd, channeld and hsmd.
            Assert.InRange(instructions.GetProperty("by_node").GetProperty(node).GetDouble(), 10e6, 1e9);
            var processes = instructions.GetProperty("by_process").GetProperty(node);
            foreach (var process in new[] { "lightningd", "lightning_channeld", "lightning_hsmd" })
            {
                Assert.True(processes.GetProperty(process).GetDouble() > 1e6, $"{node} {process}");
            }
        }
        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Contains("M instr/pay", table);
        Assert.DoesNotContain("Payments/s", table);
        Assert.DoesNotContain("| Mean", table);
        var report = await File.ReadAllTextAsync(Path.Combine(runDir, "instructions", "instructions.md"));
        Assert.Contains("| lightning_hsmd |", report);
        // The payee's invoice handler is counted by name, per payment, in its topology's function table.
        var bobFunctions = await File.ReadAllTextAsync(
            Directory
                .GetFiles(Path.Combine(runDir, "instructions"), "bob.functions.csv", SearchOption.AllDirectories)
                .Single()
        );
        Assert.Contains("lightningd,json_invoice,", bobFunctions);
        Assert.NotEmpty(
            Directory.GetFiles(
                Path.Combine(runDir, "instructions", "Concurrency-1"),
                "alice.svg",
                SearchOption.AllDirectories
            )
        );
        Assert.Contains("\"instructions\": {", await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
    }

    [SkippableFact]
    public async Task A_node_killed_mid_benchmark_is_reported_and_torn_down_and_the_results_so_far_are_kept()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-kill-").FullName;
        using var harness = HarnessProcess.Start(
            "AlicePaysBob",
            "--concurrency",
            "1",
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
            results
        );
        await harness.WaitForOutputAsync("topology ready, benchmarking", TimeSpan.FromMinutes(5));
        await Task.Delay(TimeSpan.FromSeconds(2));
        using var engine = new DockerEngine();
        var run = RunResources.Of(engine, harness.RunId!);
        var bob = (await run.ContainersAsync()).Single(c => c.Labels["lnbench.node"] == "bob");

        var kill = await ProcessRunner.RunAsync("docker", ["kill", bob.Id], TimeSpan.FromSeconds(30));
        Assert.True(kill.Succeeded, kill.Tail());
        var exitCode = await harness.WaitForExitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(1, exitCode);
        Assert.Contains("node 'bob' exited with code 137", harness.Output);
        // The evidence is the end of bob's own log, and no stack trace of the harness.
        var afterLog = harness.Output[
            (
                harness.Output.IndexOf("last lines of its log:", StringComparison.Ordinal)
                + "last lines of its log:".Length
            )..
        ];
        // A line of lightningd's log: its timestamp and level (which subsystem wrote it depends on when the kill came).
        Assert.Matches(
            @"^\s*\d{4}-\d\d-\d\dT[0-9:.]+Z (INFO|DEBUG|UNUSUAL|\*\*BROKEN\*\*) ",
            afterLog.Split('\n').Skip(1).First(l => l.Trim().Length > 0)
        );
        Assert.DoesNotContain("   at Lightning.Bench", harness.Output);
        Assert.DoesNotContain("NodeDiedException:", harness.Output);
        Assert.DoesNotContain("TargetInvocationException", harness.Output);
        await run.AssertNoneLeftAsync();
        var runDir = Assert.Single(Directory.GetDirectories(results));
        Assert.Contains("\"partial\": true", await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
        var table = await File.ReadAllTextAsync(
            Directory.GetFiles(Path.Combine(runDir, "results"), "*-report-github.md").Single()
        );
        Assert.Contains("partial: node bob exited with code 137", table);
        // The iterations that completed still give the case its figures.
        var row = table.Split('\n').Single(l => l.Contains("partial: node bob", StringComparison.Ordinal));
        var cells = row.Split('|').Select(c => c.Trim()).ToList();
        var header = table
            .Split('\n')
            .First(l => l.Contains("Payments/s", StringComparison.Ordinal))
            .Split('|')
            .Select(c => c.Trim())
            .ToList();
        Assert.True(
            double.TryParse(
                cells[header.IndexOf("Payments/s")],
                System.Globalization.CultureInfo.InvariantCulture,
                out var rate
            )
                && rate > 0,
            row
        );
        var payments = (await File.ReadAllLinesAsync(Path.Combine(runDir, "payments.csv"))).Skip(1).ToList();
        Assert.Contains(payments, p => p.Contains(",succeeded,"));
        Assert.Contains(payments, p => p.Contains(",failed,"));
    }

    [SkippableFact]
    public async Task Ctrl_c_while_payments_run_stops_cleanly_keeps_the_payments_and_leaves_nothing_behind()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-int-").FullName;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;
        using var harness = HarnessProcess.Start(
            "AlicePaysBob",
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
            work
        );
        await harness.WaitForOutputAsync("topology ready, benchmarking", TimeSpan.FromMinutes(5));
        await Task.Delay(TimeSpan.FromSeconds(3));
        var runId = harness.RunId!;

        await harness.SignalAsync("INT");
        var exitCode = await harness.WaitForExitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(130, exitCode);
        Assert.DoesNotContain("ObjectDisposedException", harness.Output);
        Assert.DoesNotContain("   at ", harness.Output);
        using var engine = new DockerEngine();
        await RunResources.Of(engine, runId).AssertNoneLeftAsync();
        Assert.Empty(Directory.GetDirectories(work));
        var runDir = Assert.Single(Directory.GetDirectories(results));
        Assert.Contains("\"partial\": true", await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
        var payments = (await File.ReadAllLinesAsync(Path.Combine(runDir, "payments.csv"))).Skip(1).ToList();
        Assert.Contains(payments, p => p.Contains(",succeeded,"));
        Assert.True(File.Exists(runDir + ".zip"));
    }

    [SkippableFact]
    public async Task Core_lightning_answers_the_harness_through_an_agents_rpc_pipe_with_the_harness_id()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var results = Directory.CreateTempSubdirectory("lnbench-e2e-pipe-").FullName;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;
        using var harness = HarnessProcess.Start(
            "AlicePaysBob",
            "--concurrency",
            "1",
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
            "--no-zip"
        );
        await harness.WaitForOutputAsync("topology ready, benchmarking", TimeSpan.FromMinutes(5));
        // The single-host layout is the agent's: WORK/TOPOLOGY/NODE/regtest/lightning-rpc.
        var alice = Directory
            .GetDirectories(work, "alice", SearchOption.AllDirectories)
            .Single(d => File.Exists(Path.Combine(d, "regtest", Lightning.Bench.Swarm.Relay.RelayAgent.RpcSocketName)));
        var topology = Path.GetDirectoryName(alice)!;
        var token = "e2e-pipe-token"u8.ToArray();
        await using (
            var agent = Lightning.Bench.Swarm.Relay.RelayAgent.Start(
                new Lightning.Bench.Swarm.Relay.AgentSettings(
                    new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0),
                    token,
                    Path.GetDirectoryName(topology)!
                )
            )
        )
        await using (
            var rpc = await Support.RelayClnRpc.ConnectAsync(
                agent.Endpoint,
                token,
                Path.GetFileName(topology),
                "alice",
                "regtest",
                TimeSpan.FromSeconds(30)
            )
        )
        {
            var info = await rpc.CallAsync("getinfo", null, "lnbench:getinfo#through-agent")
                .WaitAsync(TimeSpan.FromSeconds(30));
            Assert.Equal("regtest", info.GetProperty("network").GetString());
            Assert.Matches("^0[23][0-9a-f]{64}$", info.GetProperty("id").GetString());
            Assert.True(info.GetProperty("num_active_channels").GetInt32() >= 1, info.ToString());
            var channels = await rpc.CallAsync("listpeerchannels", null, "lnbench:listpeerchannels#through-agent")
                .WaitAsync(TimeSpan.FromSeconds(30));
            Assert.Contains(
                channels.GetProperty("channels").EnumerateArray(),
                c => c.GetProperty("state").GetString() == "CHANNELD_NORMAL"
            );
            Assert.Equal(1, agent.Stats.RpcPipes);
        }

        await harness.SignalAsync("INT");
        Assert.Equal(130, await harness.WaitForExitAsync(TimeSpan.FromSeconds(60)));
        using var engine = new DockerEngine();
        await RunResources.Of(engine, harness.RunId!).AssertNoneLeftAsync();
    }
}
