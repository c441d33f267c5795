using System.Diagnostics;
using System.Text;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Profiling;
using Lightning.Bench.Swarm;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Tests.Relay;

/// <summary>Profiles recorded by an agent: real perf on a real container's cgroup, driven and returned over TCP.</summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class RelayProfileTests : IDisposable
{
    private readonly RelayHarness harness = new();
    private readonly string build = Directory.CreateTempSubdirectory("lnbench-relay-perf-").FullName;

    public void Dispose()
    {
        harness.Dispose();
        Directory.Delete(build, recursive: true);
    }

    [SkippableFact]
    public async Task The_agent_samples_only_the_named_container_only_while_switched_on_and_sends_its_folded_stacks_back()
    {
        Requirements.Docker();
        Requirements.Perf();
        await ProfilingTests.EnsureBurnerImageAsync(build);
        var runId = $"test-{Guid.NewGuid():N}"[..16];
        using var engine = new DockerEngine();
        var burner = await ProfilingTests.StartAsync(
            engine,
            runId,
            "burner",
            ProfilingTests.BurnerImage,
            ["/usr/local/bin/lnbench-burn"]
        );
        await ProfilingTests.StartAsync(
            engine,
            runId,
            "busy",
            FakeNodeImage.Busybox,
            ["sh", "-c", "while :; do :; done"]
        );
        try
        {
            var pid = (await engine.InspectContainerAsync(burner))!.Pid;
            await using var agent = harness.StartAgent();
            await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
            var profile = await client.StartProfileAsync(
                "topo-p",
                [new ProfileTarget("burner", pid)],
                new ProfileSettings(),
                RelayHarness.Patience
            );

            await Task.Delay(TimeSpan.FromSeconds(1.5)); // switched off: nothing may be recorded
            await profile.EnableAsync(RelayHarness.Patience);
            var on = Stopwatch.StartNew();
            await Task.Delay(TimeSpan.FromSeconds(2));
            await profile.DisableAsync(RelayHarness.Patience);
            var enabled = on.Elapsed.TotalSeconds;
            await Task.Delay(TimeSpan.FromSeconds(1.5));
            var (stacks, sampled, rawBytes) = (await profile.StopAndFoldAsync(TimeSpan.FromMinutes(5)))["burner"];

            // The same recorder as on one host, folded on the agent's host: DWARF unwinding names the functions.
            Assert.Contains(
                stacks.Counts,
                s =>
                    s.Key.StartsWith("lnbench-burn;", StringComparison.Ordinal)
                    && s.Key.Contains(";main;lnbench_spin_outer;lnbench_spin_inner", StringComparison.Ordinal)
            );
            Assert.All(stacks.Counts.Keys, s => Assert.StartsWith("lnbench-burn;", s));
            Assert.InRange(stacks.Total, 10, (long)(ProfileSettings.DefaultFrequencyHz * (enabled + 0.5)));
            // The time switched on is measured on the agent's host, between the acknowledged switches.
            Assert.InRange(sampled.TotalSeconds, 1.5, enabled + 0.5);
            Assert.True(rawBytes > 0);
            // The recording's files are gone from the agent's work folder once folded.
            Assert.Empty(Directory.GetFiles(harness.Work, "*.perf.data", SearchOption.AllDirectories));
            Assert.Empty(client.Stats.BadFrames);
        }
        finally
        {
            await RunResources.Of(engine, runId).RemoveAsync();
        }
    }

    [SkippableFact]
    public async Task On_a_swarm_perf_runs_in_a_helper_container_in_the_hosts_pid_namespace_and_none_is_left_after_the_fold_or_the_agents_end()
    {
        Requirements.Docker();
        Requirements.Perf();
        await ProfilingTests.EnsureBurnerImageAsync(build);
        var runId = $"test-{Guid.NewGuid():N}"[..16];
        using var engine = new DockerEngine();
        var burner = await ProfilingTests.StartAsync(
            engine,
            runId,
            "burner",
            ProfilingTests.BurnerImage,
            ["/usr/local/bin/lnbench-burn"]
        );
        var helpers = new RunResources(engine, $"lnbench.test.helper={runId}");
        try
        {
            var pid = (await engine.InspectContainerAsync(burner))!.Pid;
            // The harness image with this host's perf, as a profiling swarm run makes it; the work folder is bound at
            // the same path in the helpers, as the work volume is on a swarm.
            var image = await HarnessImage.EnsureAsync(engine, perf: PerfSupport.Locate("perf"));
            var labels = new Dictionary<string, string> { [RunLabels.Run] = runId, ["lnbench.test.helper"] = runId };
            var settings = new AgentSettings(
                new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0),
                RelayHarness.Token,
                harness.Work,
                Host: "host-1",
                PerfContainer: new PerfContainerSettings(
                    image,
                    HarnessImage.Entrypoint,
                    harness.Work,
                    harness.Work,
                    labels
                )
            );
            await using (var agent = RelayAgent.Start(settings))
            {
                await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
                var profile = await client.StartProfileAsync(
                    "topo-h",
                    [new ProfileTarget("burner", pid)],
                    new ProfileSettings(),
                    RelayHarness.Patience
                );
                // perf is not a process of this agent: it runs in one helper container, in the host's pid namespace.
                Assert.Single(await helpers.ContainersAsync());
                Assert.Equal(0, PerfProcessesUnder(harness.Work, childrenOf: Environment.ProcessId));
                var perf = Assert.Single(
                    Process.GetProcessesByName("perf"),
                    p => File.ReadAllText($"/proc/{p.Id}/cmdline").Contains(harness.Work, StringComparison.Ordinal)
                );
                Assert.Equal(
                    new FileInfo("/proc/self/ns/pid").LinkTarget,
                    new FileInfo($"/proc/{perf.Id}/ns/pid").LinkTarget
                );
                // The sampling window: enabled before EnableAsync returns, until DisableAsync is acknowledged; on a busy
                // machine the acknowledgements take longer, so the bound is what the window took here, not a constant.
                var window = Stopwatch.StartNew();
                await profile.EnableAsync(RelayHarness.Patience);
                await Task.Delay(TimeSpan.FromSeconds(2));
                await profile.DisableAsync(RelayHarness.Patience);
                window.Stop();
                var (stacks, sampled, rawBytes) = (await profile.StopAndFoldAsync(TimeSpan.FromMinutes(5)))["burner"];

                // The burner's own functions, unwound and named by perf in the helper.
                Assert.Contains(
                    stacks.Counts,
                    s =>
                        s.Key.StartsWith("lnbench-burn;", StringComparison.Ordinal)
                        && s.Key.Contains(";main;lnbench_spin_outer;lnbench_spin_inner", StringComparison.Ordinal)
                );
                Assert.All(stacks.Counts.Keys, s => Assert.StartsWith("lnbench-burn;", s));
                Assert.InRange(sampled.TotalSeconds, 1.5, window.Elapsed.TotalSeconds + 0.5);
                Assert.True(rawBytes > 0);
                // Folded: the recording's and the fold's helpers go (the agent removes the recording's once its stacks are sent), and their files.
                var left = 0;
                await RelayHarness.Until(
                    "the helpers removed after the fold",
                    () => (left = helpers.ContainersAsync().GetAwaiter().GetResult().Count) == 0,
                    () => $"{left} left"
                );
                // A helper's output files are deleted once its container is removed (ContainerPerf.DisposeAsync): just after.
                string[] Files() =>
                    [
                        .. Directory.GetFiles(harness.Work, "*.perf.data", SearchOption.AllDirectories),
                        .. Directory.GetFiles(harness.Work, "lnbench-perf-*", SearchOption.AllDirectories),
                    ];
                await RelayHarness.Until(
                    "the helpers' files removed after the fold",
                    () => Files().Length == 0,
                    () => string.Join(", ", Files())
                );
                Assert.Empty(Directory.GetFiles(harness.Work, "*.perf.data", SearchOption.AllDirectories));
                Assert.Empty(Directory.GetFiles(harness.Work, "lnbench-perf-*", SearchOption.AllDirectories));

                // A recording the agent's end interrupts: its helper goes with the agent.
                await client.StartProfileAsync(
                    "topo-i",
                    [new ProfileTarget("burner", pid)],
                    new ProfileSettings(),
                    RelayHarness.Patience
                );
                Assert.Single(await helpers.ContainersAsync());
            }
            Assert.Empty(await helpers.ContainersAsync());
            Assert.Equal(0, PerfProcessesUnder(harness.Work));
        }
        finally
        {
            await RunResources.Of(engine, runId).RemoveAsync();
        }
    }

    [SkippableFact]
    public async Task A_node_that_cannot_be_profiled_fails_the_start_with_its_name_and_nothing_is_left_recording()
    {
        Requirements.Perf();
        await using var agent = harness.StartAgent();
        await using var client = RelayClient.Start(agent.Endpoint, RelayHarness.Token);
        var self = Environment.ProcessId;

        var missing = await Assert.ThrowsAsync<IOException>(() =>
            client.StartProfileAsync(
                "topo-q",
                [new ProfileTarget("alice", self), new ProfileTarget("bob", int.MaxValue)],
                new ProfileSettings(),
                RelayHarness.Patience
            )
        );
        Assert.Contains("bob:", missing.Message);
        var badName = await Assert.ThrowsAsync<IOException>(() =>
            client.StartProfileAsync(
                "../topo",
                [new ProfileTarget("alice", self)],
                new ProfileSettings(),
                RelayHarness.Patience
            )
        );
        Assert.Contains("is not a topology and node name", badName.Message);
        var badSettings = await Assert.ThrowsAsync<IOException>(() =>
            client.StartProfileAsync(
                "topo-q",
                [new ProfileTarget("alice", self)],
                new ProfileSettings(CallGraph: "lbr"),
                RelayHarness.Patience
            )
        );
        Assert.Contains("'lbr' stacks", badSettings.Message);

        // Nothing started for topo-q: switching it or stopping it says so.
        var notProfiled = new RelayProfile(client, "topo-q", ["alice"]);
        var off = await Assert.ThrowsAsync<IOException>(() => notProfiled.EnableAsync(RelayHarness.Patience));
        Assert.Contains("topo-q is not being profiled", off.Message);
        var stop = await Assert.ThrowsAsync<IOException>(() => notProfiled.StopAndFoldAsync(RelayHarness.Patience));
        Assert.Contains("topo-q is not being profiled", stop.Message);
        // alice's recording, started before bob failed, was ended: no perf of this agent runs.
        await RelayHarness.Until(
            "no perf recording into the agent's folder",
            () => PerfProcessesUnder(harness.Work) == 0,
            () => $"{PerfProcessesUnder(harness.Work)} running"
        );
    }

    [Fact]
    public void Folded_stacks_are_cut_into_chunks_of_whole_lines_that_add_up_to_the_profile()
    {
        var counts = Enumerable
            .Range(0, 20000)
            .ToDictionary(i => $"lightningd;io_loop;handler_{i:d5};" + new string('f', 100), i => (long)(i % 7 + 1));
        counts["[kernel];" + string.Join(";", Enumerable.Repeat("very_deep_frame", 40000))] = 5;
        var profile = new FoldedStacks(counts);
        var text = new StringWriter();
        profile.Write(text);

        var chunks = ProfileChunkMessage.Split(9, "alice", text.ToString(), TimeSpan.FromSeconds(3), 12345).ToList();
        var decoded = chunks.Select(c => ProfileChunkMessage.Decode(RelayFrameFromBytes(c.Encode()))).ToList();

        Assert.True(decoded.Count >= 4, $"{decoded.Count} chunks");
        Assert.All(decoded, c => Assert.True(c.Text.Length <= ProfileChunkMessage.MaxTextBytes));
        Assert.All(decoded.SkipLast(1), c => Assert.False(c.Last));
        Assert.Equal(
            (true, 3_000_000L, 12345L),
            (decoded[^1].Last, decoded[^1].SampledMicroseconds, decoded[^1].RawBytes)
        );
        var back = FoldedStacks.Parse(
            new StringReader(string.Concat(decoded.Select(c => Encoding.UTF8.GetString(c.Text))))
        );
        // Every sample arrives; the one stack longer than a chunk keeps its samples under a frame that says so.
        Assert.Equal(profile.Total, back.Total);
        Assert.Equal(5, back.Counts[ProfileChunkMessage.TooLongStack]);
        Assert.Equal(counts.Count, back.Counts.Count);
    }

    /// <summary>perf processes recording into <paramref name="folder"/> (any on the host, or only children of <paramref name="childrenOf"/>).</summary>
    private static int PerfProcessesUnder(string folder, int? childrenOf = null) =>
        Process
            .GetProcessesByName("perf")
            .Count(p =>
            {
                try
                {
                    return File.ReadAllText($"/proc/{p.Id}/cmdline").Contains(folder, StringComparison.Ordinal)
                        && (
                            childrenOf is null
                            || File.ReadAllText($"/proc/{p.Id}/stat").Split(' ')[3]
                                == childrenOf.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)
                        );
                }
                catch (IOException)
                {
                    return false;
                }
            });

    private static RelayFrame RelayFrameFromBytes(byte[] bytes) =>
        new((RelayFrameType)bytes[RelayWire.HeaderBytes], bytes[(RelayWire.HeaderBytes + 1)..]);
}
