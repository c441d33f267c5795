using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>--profile's options, its preflight messages, the cgroup it scopes to and what sampling cost, without Docker.</summary>
[Trait("Category", "Unit")]
public class ProfilingOptionTests
{
    [Theory]
    [InlineData("--profile-frequency 199", "--profile-frequency applies to profiled runs: add --profile")]
    [InlineData(
        "--profile --profile-stacks lbr",
        "--profile-stacks is dwarf (any build; 16 KB of stack copied per sample) or fp"
    )]
    [InlineData("--profile-every 5m --soak 1h", "--profile-every applies to profiled runs: add --profile")]
    [InlineData("--profile --profile-every 5m", "--profile-every spaces a soak's profile windows: add --soak")]
    [InlineData("--profile --soak 2m --profile-every 2m", "leaves no profile window in a soak of 120s")]
    [InlineData("--profile --soak 1h --profile-every 500", "--profile-every takes a duration")]
    [InlineData("--profile --iterations 1", "give --iterations 2 or more")]
    [InlineData("--profile --profile-if-available", "give one of --profile")]
    [InlineData("--profile=yes", "--profile takes no value")]
    public void Bad_profile_options_are_refused_with_what_to_do(string arguments, string message)
    {
        var error = Assert.Throws<UsageException>(() => OptionParser.Parse(["AlicePaysBob", .. arguments.Split(' ')]));
        Assert.Contains(message, error.Message);
    }

    [Fact]
    public void Profile_options_make_the_settings_perf_is_run_with()
    {
        Assert.Null(OptionParser.Parse(["AlicePaysBob"]).Profile);
        var settings = OptionParser
            .Parse(["AlicePaysBob", "--profile-if-available", "--profile-frequency", "499", "--profile-stacks", "fp"])
            .Profile!;
        Assert.False(settings.Required);
        Assert.Equal(["-e", "cpu-clock", "-F", "499", "--call-graph", "fp"], settings.RecordArguments);
        Assert.Equal(
            ["-e", "cpu-clock", "-F", "99", "--call-graph", "dwarf,16384"],
            OptionParser.Parse(["AlicePaysBob", "--profile"]).Profile!.RecordArguments
        );
    }

    [Fact]
    public async Task Without_perf_the_check_says_what_to_install_and_how_to_run_on()
    {
        var (version, problem) = await PerfSupport.CheckAsync(new ProfileSettings(PerfPath: "/nonexistent/perf"));
        Assert.Null(version);
        Assert.Equal(
            "--profile needs Linux perf, and '/nonexistent/perf' was not found: install it (Debian: apt-get install linux-perf; "
                + "Ubuntu: apt-get install linux-tools-$(uname -r)); or run without --profile (--profile-if-available runs on without profiles)",
            problem
        );
        var (_, optional) = await PerfSupport.CheckAsync(
            new ProfileSettings(Required: false, PerfPath: "/nonexistent/perf")
        );
        Assert.DoesNotContain("--profile-if-available", optional);
    }

    [Fact]
    public void Perfs_refusal_under_perf_event_paranoid_becomes_one_line_with_the_sysctl_that_fixes_it()
    {
        // Captured from this machine: perf record -a as an unprivileged user with kernel.perf_event_paranoid = 2.
        var stderr = File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Profiles", "perf-paranoid-stderr.txt"));
        var message = PerfSupport.Explain(
            new ProcessResult("perf", ["record"], 255, "", stderr),
            new ProfileSettings()
        );
        Assert.StartsWith("perf may not sample the whole machine (kernel.perf_event_paranoid is ", message);
        Assert.Contains("run 'sudo sysctl kernel.perf_event_paranoid=-1' or run as root", message);
        Assert.DoesNotContain("\n", message);

        var dwarf = PerfSupport.Explain(
            new ProcessResult("perf", ["record"], 129, "", "Error: unsupported call graph mode 'dwarf'\n"),
            new ProfileSettings()
        );
        Assert.Contains("--profile-stacks fp", dwarf);
    }

    [Theory]
    [InlineData("12:perf_event:/docker/abc\n0::/docker/abc", true, "docker/abc")]
    [InlineData("4:memory:/docker/abc\n0::/docker/abc", false, "docker/abc")] // hybrid without a v1 perf_event mount (this machine)
    [InlineData("0::/system.slice/docker-abc.scope", false, "system.slice/docker-abc.scope")] // cgroup v2 with systemd
    [InlineData("12:perf_event:/docker/abc\n0::/", false, null)] // perf_event listed but not mounted, unified root
    public void The_cgroup_perf_scopes_to_follows_the_hierarchy_that_has_perf_events(
        string lines,
        bool v1Mounted,
        string? expected
    )
    {
        var (cgroup, problem) = PerfCgroup.Of(ProcessCgroups.Parse(42, lines.Split('\n')), v1Mounted);
        Assert.Equal(expected, cgroup);
        Assert.Equal(expected is null, problem.Length > 0);
    }

    [Fact]
    public void Sampled_and_unsampled_invocations_are_told_apart_and_their_cost_paired_by_topology()
    {
        Assert.Equal([2, 4, 6], Enumerable.Range(1, 7).Where(i => CaseProfiler.Samples(i, warmups: 1)).ToList());

        var cases = Enumerable
            .Range(1, 4)
            .Select(topology =>
            {
                var results = new CaseResults($"Build=a, Concurrency=1, Topology={topology}", 1)
                {
                    Parameters = new Dictionary<string, string>
                    {
                        ["Build"] = "a",
                        ["Concurrency"] = "1",
                        ["Topology"] = $"{topology}",
                    },
                };
                for (var invocation = 1; invocation <= 7; invocation++)
                {
                    var started = results.StartInvocation();
                    var sampled = CaseProfiler.Samples(started, warmups: 1);
                    if (sampled)
                    {
                        results.MarkProfiled(started);
                    }
                    // Topologies differ by 10 % each; sampling adds 5 % in every one.
                    var ms = 100 * (1 + 0.1 * topology) * (sampled ? 1.05 : 1);
                    results.CompleteInvocation(started, TimeSpan.FromMilliseconds(ms));
                    results.RecordCpu(started, new Dictionary<string, long> { ["alice"] = (long)(ms * 1e5) });
                    results.Add(
                        new OperationRecord(
                            results.CaseKey,
                            started,
                            started,
                            "alice",
                            "bob",
                            DateTimeOffset.UnixEpoch,
                            DateTimeOffset.UnixEpoch,
                            DateTimeOffset.UnixEpoch,
                            null,
                            OperationOutcome.Succeeded,
                            null
                        )
                    );
                }
                results.Complete(warmups: 1, iterations: 6);
                results.Profiles = [new ProfileRecord("alice", "profiles/x/alice.folded", 10, 3, 0.3, 1, 1, 0, 0)];
                return results;
            })
            .ToList();

        Assert.Equal(3, cases[0].ProfiledPayments());
        var report = ProfilingCostReport.Markdown(cases, seed: 1);
        Assert.Contains("| Build=a, Concurrency=1 | 4 | 125.0 → 131.3 | 1.050 (1.050 – 1.050) |", report);
    }

    [Fact]
    public void Changes_between_builds_are_called_beyond_noise_only_for_an_injected_hot_spot_not_for_sampling_noise()
    {
        // 8 paired topologies, 40 payments each; 30 functions whose samples are Poisson noise around the same rates in
        // both builds; in the candidate "hot_spot" adds 3 samples a payment (30 ms at 99 Hz) on top.
        var random = new Random(5);
        int Poisson(double mean) => PoissonSample(random, mean);
        ProfileReport.Group Build(string build, double hotSpotPerPayment)
        {
            var topologies = Enumerable
                .Range(1, 8)
                .Select(t =>
                {
                    var counts = Enumerable
                        .Range(0, 30)
                        .ToDictionary(
                            f => $"lightningd;main;io_loop;f{f:00}",
                            f => (long)Poisson(40 * (0.2 + f * 0.05))
                        );
                    counts["lightningd;main;io_loop;json_invoice;hot_spot"] = Poisson(40 * (0.1 + hotSpotPerPayment));
                    return ($"{t}", new FoldedStacks(counts), 40);
                })
                .ToList();
            var parameters = new Dictionary<string, string> { ["Build"] = build, ["Concurrency"] = "1" };
            return new ProfileReport.Group(
                "c",
                parameters,
                "bob",
                FoldedStacks.Merge(topologies.Select(t => t.Item2)),
                320,
                topologies
            );
        }
        var baseline = Build("a", 0);

        var calledInAa = new List<string>();
        var aa = ProfileReport.Changes("A/A", baseline, Build("b", 0), 99, thresholdPercent: 2, called: calledInAa);
        Assert.Empty(calledInAa);
        Assert.DoesNotContain("| grew |", aa);
        Assert.DoesNotContain("| shrank |", aa);
        Assert.Matches(@"widened for the [0-9]+ functions? heavy enough to change that much, excludes 0", aa);

        var called = new List<string>();
        var injected = ProfileReport.Changes(
            "injected",
            baseline,
            Build("b", 3),
            99,
            thresholdPercent: 2,
            called: called
        );
        Assert.StartsWith("hot_spot grew +", Assert.Single(called));
        Assert.EndsWith("called from lightningd: main › io_loop › json_invoice", called[0]);
        Assert.Matches(
            @"\| `hot_spot` \| lightningd: main › io_loop › json_invoice \| [0-9.]+ \| [0-9.]+ \| \+[0-9.]+ \| [^|]+ \(8\) \| grew \|",
            injected
        );
        Assert.Single(System.Text.RegularExpressions.Regex.Matches(injected, @"\| grew \||\| shrank \|"));

        // Three topologies whose candidate has exactly one more sample of a function each: the differences agree, so
        // their spread is 0, but one sample is all the evidence each holds; the interval keeps sampling's width.
        ProfileReport.Group Sparse(string build, long extra)
        {
            var topologies = Enumerable
                .Range(1, 3)
                .Select(t =>
                    (
                        $"{t}",
                        new FoldedStacks(
                            new Dictionary<string, long>
                            {
                                ["lightningd;main;io_loop"] = 40,
                                ["cln-askrene;main;do_getroutes"] = extra,
                            }
                                .Where(c => c.Value > 0)
                                .ToDictionary(c => c.Key, c => c.Value)
                        ),
                        12
                    )
                )
                .ToList();
            return new ProfileReport.Group(
                "c",
                new Dictionary<string, string> { ["Build"] = build },
                "alice",
                FoldedStacks.Merge(topologies.Select(t => t.Item2)),
                36,
                topologies
            );
        }
        var sparse = new List<string>();
        var table = ProfileReport.Changes(
            "sparse",
            Sparse("a", 0),
            Sparse("b", 1),
            99,
            thresholdPercent: 2,
            called: sparse
        );
        Assert.Empty(sparse);
        Assert.Matches(
            @"\| `do_getroutes` \| [^|]+ \| 0\.00 \| 0\.84 \| \+0\.84 \| -[0-9.]+ … \+[0-9.]+ \(3\) \|  \|",
            table
        );
    }

    [Fact]
    public void A_profiled_soak_spaces_its_windows_by_its_length_unless_told()
    {
        var hour = OptionParser.Parse(["AlicePaysBob", "--soak", "1h", "--profile"]);
        Assert.Null(hour.ProfileEvery);
        Assert.Equal(TimeSpan.FromMinutes(3), Soak.SoakProfiler.DefaultEvery(hour.Soak!));
        Assert.Equal(
            TimeSpan.FromMinutes(1),
            Soak.SoakProfiler.DefaultEvery(OptionParser.Parse(["AlicePaysBob", "--soak", "10m", "--profile"]).Soak!)
        );
        Assert.Equal(
            TimeSpan.FromMinutes(5),
            Soak.SoakProfiler.DefaultEvery(OptionParser.Parse(["AlicePaysBob", "--soak", "50000", "--profile"]).Soak!)
        );
        Assert.Equal(
            TimeSpan.FromSeconds(30),
            OptionParser.Parse(["AlicePaysBob", "--soak", "10m", "--profile", "--profile-every", "30s"]).ProfileEvery
        );
    }

    [Fact]
    public void A_soaks_profile_windows_show_the_function_whose_cost_per_payment_grows_and_call_noise_flat_or_unknown()
    {
        // 20 windows of 200 payments, one every 1,000 payments: 20 functions of steady Poisson noise, and "grows"
        // whose samples per payment rise from 0.2 to 2.1 over the soak (the n-th invoice costing n × a little more).
        var run = Directory.CreateTempSubdirectory("lnbench-soakprofile-").FullName;
        try
        {
            var random = new Random(9);
            int Poisson(double mean) => PoissonSample(random, mean);
            var windows = Enumerable
                .Range(1, 20)
                .Select(n =>
                {
                    var counts = Enumerable
                        .Range(0, 20)
                        .ToDictionary(
                            f => $"lightningd;main;io_loop;f{f:00}",
                            f => (long)Poisson(200 * (0.1 + f * 0.02))
                        );
                    counts["lightningd;main;io_loop;json_invoice;grows"] = Poisson(200 * 0.1 * n);
                    var file = $"profiles/soak-window-{n:000}/bob.folded";
                    Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(run, file))!);
                    new FoldedStacks(counts).WriteFile(Path.Combine(run, file));
                    return new Results.SoakProfileWindow(
                        n,
                        n * 30,
                        n * 1000,
                        [new ProfileRecord("bob", file, counts.Values.Sum(), 200, 10, 1, counts.Count, 0, 0)]
                    );
                })
                .ToList();

            var lines = Soak.SoakProfileReport.Write(
                run,
                windows,
                new ProfileSettings(),
                "perf 6.1",
                2,
                TimeSpan.FromSeconds(30),
                (100, 120),
                (1000, 110)
            );
            var report = File.ReadAllText(Path.Combine(run, "profiles", "profiles.md"));

            Assert.Contains(lines, l => l.StartsWith("bob: grows growing", StringComparison.Ordinal));
            Assert.Contains(lines, l => l.StartsWith("bob: CPU per payment growing", StringComparison.Ordinal));
            Assert.Equal(2, lines.Count);
            Assert.Matches(
                @"\| `grows` \| lightningd: main › io_loop › json_invoice \| [0-9.]+ \| [0-9.]+ \| \+[0-9.]+ % [^|]+\| growing \|",
                report
            );
            Assert.DoesNotContain("| shrinking |", report);
            Assert.Contains(
                "payments that ended inside windows took 120.0 ms on average (100 payments), outside them 110.0 ms (1000)",
                report
            );
            foreach (var svg in new[] { "bob-first.svg", "bob-last.svg", "bob-last-vs-first.svg" })
            {
                Assert.NotNull(System.Xml.Linq.XDocument.Load(Path.Combine(run, "profiles", "soak", svg)).Root);
            }

            // The same soak cut to its first five windows: slopes, but no verdicts.
            var few = Soak.SoakProfileReport.Write(
                run,
                windows.Take(5).ToList(),
                new ProfileSettings(),
                "perf 6.1",
                2,
                TimeSpan.FromSeconds(30),
                (1, 1),
                (1, 1)
            );
            Assert.Empty(few);
            Assert.Contains(
                "unknown: 5 windows, 8 needed",
                File.ReadAllText(Path.Combine(run, "profiles", "profiles.md"))
            );
        }
        finally
        {
            Directory.Delete(run, recursive: true);
        }
    }

    [Theory]
    [InlineData(5, 300)] // Concurrency=1: 5 sampled payments per topology, a long tail of light functions
    [InlineData(40, 30)] // fewer, heavier functions, where the widening has the fewest rows to spread over
    public void Over_simulated_runs_the_beyond_noise_column_rarely_calls_an_a_a_change_and_finds_an_injected_one(
        int payments,
        int functions
    )
    {
        // 8 topology pairs; each topology's CPU drifts ±10 % (all its functions together), samples are Poisson; function
        // f costs 2 ÷ (1 + f) samples per payment. Power: a new function costing 1 sample (10 ms at 99 Hz) per payment.
        var (falseTables, found) = (0, 0);
        for (var seed = 0; seed < 100; seed++)
        {
            var random = new Random(seed);
            ProfileReport.Group Build(string build, double injected)
            {
                var topologies = Enumerable
                    .Range(1, 8)
                    .Select(t =>
                    {
                        var drift = 1 + (random.NextDouble() - 0.5) * 0.2;
                        var counts = Enumerable
                            .Range(0, functions)
                            .ToDictionary(
                                f => $"lightningd;main;f{f:000}",
                                f => (long)PoissonSample(random, payments * 2.0 / (1 + f) * drift)
                            );
                        counts["lightningd;main;hot"] = PoissonSample(random, payments * injected);
                        return (
                            $"{t}",
                            new FoldedStacks(counts.Where(c => c.Value > 0).ToDictionary(c => c.Key, c => c.Value)),
                            payments
                        );
                    })
                    .ToList();
                return new ProfileReport.Group(
                    "c",
                    new Dictionary<string, string> { ["Build"] = build },
                    "bob",
                    FoldedStacks.Merge(topologies.Select(t => t.Item2)),
                    payments * 8,
                    topologies
                );
            }
            var calledInAa = new List<string>();
            ProfileReport.Changes("A/A", Build("a", 0), Build("b", 0), 99, thresholdPercent: 2, called: calledInAa);
            falseTables += calledInAa.Count > 0 ? 1 : 0;
            var called = new List<string>();
            ProfileReport.Changes("injected", Build("a", 0), Build("b", 1), 99, thresholdPercent: 2, called: called);
            found += called.Any(c => c.StartsWith("hot grew", StringComparison.Ordinal)) ? 1 : 0;
        }
        // Measured: 0–1 tables of 100 with any false call, the injected function found 95–100 times.
        Assert.InRange(falseTables, 0, 3);
        Assert.InRange(found, 90, 100);
    }

    /// <summary>Sample counts of a function in a profile: Poisson around its mean (Knuth's method, small means).</summary>
    private static int PoissonSample(Random random, double mean)
    {
        var (limit, k, p) = (Math.Exp(-mean), 0, 1.0);
        while ((p *= random.NextDouble()) > limit)
        {
            k++;
        }
        return k;
    }
}

/// <summary>
/// A harness that reaches Docker sweeps every run on this host whose owner is gone, as a real start does: in the Docker
/// tests' collection, so it never runs beside a test that leaves a "killed" run on purpose (the swarm sweep test's).
/// </summary>
[Trait("Category", "Unit")]
[Collection(DockerCollection.Name)]
public class ProfilingFallbackTests
{
    [Fact]
    public async Task A_run_that_cannot_profile_stops_before_it_touches_docker_unless_it_may_run_on_without_profiles()
    {
        var folder = Directory.CreateTempSubdirectory("lnbench-noperf-").FullName;
        try
        {
            var environment = new Dictionary<string, string> { ["LNBENCH_PERF"] = "/nonexistent/perf" };
            using (
                var harness = HarnessProcess.Start(
                    environment,
                    "AlicePaysBob",
                    "--profile",
                    "--results",
                    Path.Combine(folder, "results"),
                    "--work-dir",
                    Path.Combine(folder, "w")
                )
            )
            {
                Assert.Equal(1, await harness.WaitForExitAsync(TimeSpan.FromMinutes(1)));
                Assert.Contains(
                    "lnbench: error: --profile needs Linux perf, and '/nonexistent/perf' was not found: install it",
                    harness.Output
                );
                Assert.DoesNotContain("Docker engine", harness.Output);
                Assert.Empty(Directory.GetFileSystemEntries(Path.Combine(folder, "results")));
            }
            using (
                var harness = HarnessProcess.Start(
                    environment,
                    "AlicePaysBob",
                    "--profile-if-available",
                    "--cln-image",
                    "lnbench-test/absent:0",
                    "--no-pull",
                    "--results",
                    Path.Combine(folder, "results"),
                    "--work-dir",
                    Path.Combine(folder, "w")
                )
            )
            {
                await harness.WaitForExitAsync(TimeSpan.FromMinutes(2));
                Assert.Contains("running without profiles: --profile needs Linux perf", harness.Output);
                Assert.DoesNotContain("lnbench: error: --profile", harness.Output);
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
