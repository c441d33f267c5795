using System.Text.Json;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Tests;

/// <summary>Faults during a run, with the harness as a process, the real engine and stand-in node images.</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class HarnessFaultTests : IDisposable
{
    private readonly string results = Directory.CreateTempSubdirectory("lnbench-faults-").FullName;
    private readonly DockerEngine engine = new();

    private string[] FakeRun(params string[] extra) =>
        [
            "AlicePaysBob",
            "--concurrency",
            "1",
            "--iterations",
            "1",
            "--topologies",
            "1",
            "--cln-image",
            FakeNodeImage.FakeNode,
            "--bitcoind-image",
            FakeNodeImage.FakeNode,
            "--no-pull",
            "--results",
            results,
            "--setup-timeout",
            "300",
            .. extra,
        ];

    [SkippableTheory]
    [InlineData("INT")]
    [InlineData("TERM")]
    [InlineData("HUP")]
    [InlineData("QUIT")]
    [InlineData("lifeline")]
    public async Task A_signal_during_setup_tears_everything_down_keeps_partial_results_and_exits_130(string signal)
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        // "lifeline": a side-by-side share whose starting run died (kill -9): its standard input ends, and no signal comes.
        using var harness = HarnessProcess.Start(
            signal == "lifeline"
                ? new Dictionary<string, string> { [Run.RunInterrupt.Lifeline] = "stdin" }
                : new Dictionary<string, string>(),
            FakeRun()
        );
        // The stand-in bitcoind never answers RPC, so the harness waits there until it is stopped.
        await harness.WaitForOutputAsync("bitcoind: waiting for RPC", TimeSpan.FromMinutes(2));
        var run = RunResources.Of(engine, harness.RunId!);
        Assert.NotEmpty(await run.ContainersAsync());

        if (signal == "lifeline")
        {
            harness.CloseInput();
        }
        else
        {
            await harness.SignalAsync(signal);
        }
        var exitCode = await harness.WaitForExitAsync(TimeSpan.FromSeconds(30));
        if (signal == "lifeline")
        {
            Assert.Contains(
                "the side-by-side run that started this share is gone (its standard input ended): stopping",
                harness.Output
            );
        }

        Assert.Equal(130, exitCode);
        await run.AssertNoneLeftAsync();
        var runDir = Assert.Single(Directory.GetDirectories(results));
        using var manifest = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
        Assert.True(manifest.RootElement.GetProperty("partial").GetBoolean());
        Assert.True(File.Exists(runDir + ".zip"));
    }

    [SkippableTheory]
    [InlineData("v1")]
    [InlineData("v2")]
    public async Task A_run_with_compose_brings_the_topology_up_and_down_with_the_compose_chosen(string version)
    {
        var compose = await Requirements.ComposeAsync(version);
        await FakeNodeImage.EnsureBuiltAsync();
        using var harness = HarnessProcess.Start(
            new Dictionary<string, string> { [ComposeCli.ChoiceVariable] = version },
            FakeRun("--with-compose")
        );
        await harness.WaitForOutputAsync("bitcoind: waiting for RPC", TimeSpan.FromMinutes(2));
        var run = RunResources.Of(engine, harness.RunId!);

        // compose itself made the containers: each carries the version of the compose that created it ("2.26.1" of "2.26.1-4").
        Assert.Contains($"), {compose.Version}", harness.Output);
        var containers = await run.ContainersAsync();
        Assert.NotEmpty(containers);
        Assert.All(
            containers,
            c => Assert.StartsWith(c.Labels["com.docker.compose.version"], compose.Version.Split(' ')[^1])
        );

        // Taken down by `compose down` (compose v1 alone takes seconds to start): this is no test of promptness.
        await harness.SignalAsync("INT");
        Assert.Equal(130, await harness.WaitForExitAsync(TimeSpan.FromMinutes(2)));
        await run.AssertNoneLeftAsync();
        var runDir = Assert.Single(Directory.GetDirectories(results));
        Assert.Contains($"\"{compose.Version}\"", await File.ReadAllTextAsync(Path.Combine(runDir, "manifest.json")));
    }

    [SkippableFact]
    public async Task A_run_killed_with_sigkill_is_cleaned_up_by_the_next_run_which_says_so()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        var queueBefore = DatagramQueueLimit.Current;
        var work = Directory.CreateTempSubdirectory("lnb-").FullName;
        string runId;
        using (var killed = HarnessProcess.Start(FakeRun("--work-dir", work)))
        {
            await killed.WaitForOutputAsync("bitcoind: waiting for RPC", TimeSpan.FromMinutes(2));
            runId = killed.RunId!;
            await killed.SignalAsync("KILL");
            await killed.WaitForExitAsync(TimeSpan.FromSeconds(30));
        }
        var killedRun = RunResources.Of(engine, runId);
        Assert.NotEmpty(await killedRun.ContainersAsync());
        // Killed while mining its chain seed (the stand-in bitcoind never answers): the seed's folder and the folder of the
        // bitcoind mining it, whose configuration holds this run's RPC credentials, are left.
        var leftFolders = Directory.GetDirectories(work, $"lnbench-{runId}-*").Order().ToList();
        Assert.Equal([$"lnbench-{runId}-1", $"lnbench-{runId}-seed"], leftFolders.Select(Path.GetFileName));
        Assert.Contains(
            "rpcauth=",
            await File.ReadAllTextAsync(Path.Combine(leftFolders[0], "bitcoind", "bitcoin.conf"))
        );

        // The next run cleans up first, then fails on its own bad image before starting anything.
        using var next = HarnessProcess.Start(
            "AlicePaysBob",
            "--cln-image",
            "lnbench-test/does-not-exist:1",
            "--bitcoind-image",
            FakeNodeImage.FakeNode,
            "--no-pull",
            "--results",
            results,
            "--work-dir",
            work
        );
        var exitCode = await next.WaitForExitAsync(TimeSpan.FromMinutes(1));

        Assert.Equal(1, exitCode);
        Assert.Contains($"removed containers left by 1 earlier run(s) whose harness is gone: {runId}", next.Output);
        Assert.Contains("lnbench: error: image 'lnbench-test/does-not-exist:1' is not present locally", next.Output);
        // As root the killed run raised net.unix.max_dgram_qlen for its trace sockets and could not put it back: the next run did.
        Assert.Equal(queueBefore, DatagramQueueLimit.Current);
        if (queueBefore < DatagramQueueLimit.Wanted && Environment.UserName == "root")
        {
            Assert.Contains(
                $"restored net.unix.max_dgram_qlen to {queueBefore} (an earlier run whose harness is gone left it at {DatagramQueueLimit.Wanted})",
                next.Output
            );
        }
        await killedRun.AssertNoneLeftAsync();
        Assert.Contains($"removed 2 node folder(s) with RPC credentials", next.Output);
        Assert.All(leftFolders, f => Assert.False(Directory.Exists(f)));
        Directory.Delete(work, recursive: true);
    }

    [SkippableFact]
    public async Task Bad_input_fails_before_any_container_starts()
    {
        Requirements.Docker();
        await FakeNodeImage.EnsureBuiltAsync();
        // Every run's containers, this test's or another's: none may start.
        var anyRun = new RunResources(engine, RunLabels.Run);
        var before = (await anyRun.ContainersAsync()).Count;
        foreach (
            var (args, expected) in new (string[], string)[]
            {
                (["--concurrency", "0"], "--concurrency 0 is out of range"),
                (["--work-dir", "/tmp/" + new string('w', 90)], "Unix socket limit"),
                (["--results", "/proc/lnbench"], "cannot write to /proc/lnbench"),
                (
                    ["--cln-image", FakeNodeImage.Busybox, "--no-pull", "--results", results],
                    "cannot run 'lightningd --version'"
                ),
            }
        )
        {
            using var harness = HarnessProcess.Start(args);
            var exitCode = await harness.WaitForExitAsync(TimeSpan.FromMinutes(1));
            Assert.NotEqual(0, exitCode);
            var errors = harness
                .Output.Split('\n')
                .Where(l => l.StartsWith("lnbench: error:", StringComparison.Ordinal))
                .ToList();
            Assert.Contains(expected, Assert.Single(errors));
        }
        Assert.Equal(before, (await anyRun.ContainersAsync()).Count);
    }

    [SkippableFact]
    public async Task A_docker_engine_that_does_not_answer_gets_one_line_that_says_how_to_start_it()
    {
        Requirements.Docker();
        var missing = Path.Combine(results, "no-docker.sock");
        using var harness = HarnessProcess.Start(
            new Dictionary<string, string> { ["DOCKER_HOST"] = $"unix://{missing}" },
            "--results",
            results
        );
        Assert.Equal(1, await harness.WaitForExitAsync(TimeSpan.FromMinutes(1)));
        var error = Assert.Single(
            harness.Output.Split('\n'),
            l => l.StartsWith("lnbench: error:", StringComparison.Ordinal)
        );
        Assert.Contains($"no Docker engine answers at unix://{missing}", error);
        Assert.Contains("start it", error);
    }

    public void Dispose()
    {
        engine.Dispose();
        Directory.Delete(results, recursive: true);
    }
}
