using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

[Trait("Category", "Unit")]
public class ArtifactTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-artifacts-").FullName;

    internal static Manifest SampleManifest(IReadOnlyList<string> arguments)
    {
        var options = OptionParser.Parse(arguments);
        var scenario = ScenarioCatalog.Get(options.Scenario);
        return new Manifest
        {
            RunId = "20261121-101010-abcd",
            HarnessVersion = "1.0.0",
            HarnessCommit = "0123456789ab",
            Arguments = arguments,
            CommandLine = "./run.sh " + string.Join(' ', arguments),
            Scenario = scenario.Name,
            Parameters = scenario.Parameters.ToDictionary(p => p.Name, p => p.ValuesFrom(options.Sweeps)),
            Iterations = options.Iterations,
            Warmups = options.Warmups,
            AmountMsat = options.AmountMsat,
            Traces = ["on"],
            Invoices = "in payment",
            Builds = options.Builds.Select(b => new BuildRecord(b.Name, b.Image, b.NodeImages)).ToList(),
            BitcoindImage = options.BitcoindImage,
            Images =
            [
                new ImageRecord(
                    "x:1",
                    "sha256:abc",
                    ["x@sha256:def"],
                    new Dictionary<string, string> { ["lightningd"] = "v26.06.6" }
                ),
            ],
            Cases =
            [
                new CaseRecord(
                    "Build=x:1, CarolsCount=1",
                    "lnbench-1",
                    new Dictionary<string, string> { ["alice"] = "x:1" },
                    new Dictionary<string, string> { ["alice"] = "v26.06.6" },
                    DateTimeOffset.UnixEpoch,
                    DateTimeOffset.UnixEpoch.AddMinutes(1)
                ),
            ],
            Machine = MachineRecord.Collect("20.10.24", "1.41", "docker-compose 1.29.2"),
            Started = DateTimeOffset.UnixEpoch,
            Ended = DateTimeOffset.UnixEpoch.AddMinutes(2),
            Partial = false,
        };
    }

    [Fact]
    public void The_manifest_keeps_what_a_reader_needs_and_reads_back()
    {
        var manifest = SampleManifest(["AlicePaysBobViaCarols", "--carols", "1,4", "--cln-image", "x:1"]);
        manifest.Write(directory);
        var json = File.ReadAllText(Path.Combine(directory, Manifest.FileName));
        foreach (
            var field in new[]
            {
                "harness_commit",
                "command_line",
                "parameters",
                "repo_digests",
                "cpu_model",
                "cpu_count",
                "memory_bytes",
                "docker_engine",
                "node_versions",
                "started",
                "ended",
                "partial",
            }
        )
        {
            Assert.Contains($"\"{field}\"", json);
        }
        var read = Manifest.Read(json);
        Assert.Equal([1, 4], read.Parameters["CarolsCount"]);
        Assert.Equal("v26.06.6", read.Cases[0].NodeVersions["alice"]);
        Assert.True(read.Machine.CpuCount > 0);
    }

    [Fact]
    public void A_replay_reproduces_the_parameters_images_and_compose_files_of_the_zip()
    {
        string[] arguments =
        [
            "AlicePaysBobViaCarols",
            "--carols",
            "1,4",
            "--cln-image",
            "x:1",
            "--bitcoind-image",
            "btc:1",
            "--iterations",
            "7",
        ];
        var run = Directory
            .CreateDirectory(Path.Combine(directory, "20261121-101010-abcd-AlicePaysBobViaCarols"))
            .FullName;
        SampleManifest(arguments).Write(run);
        var settings = new ComposeRunSettings(
            "lnbench-p",
            new RunLayout("/tmp/lnb/lnbench-p"),
            "1000:1000",
            new Dictionary<string, string> { [RunLabels.Run] = "r" },
            true
        );
        var original = OptionParser.Parse(arguments);
        foreach (var carols in new[] { 1, 4 })
        {
            var caseDir = Directory.CreateDirectory(Path.Combine(run, "cases", $"CarolsCount-{carols}")).FullName;
            var topology = AlicePaysBobViaCarols.TopologyFor(original.Builds[0], original.BitcoindImage, carols);
            File.WriteAllText(
                Path.Combine(caseDir, "docker-compose.yml"),
                ComposeYaml.Serialize(
                    ComposeGenerator.Generate(topology, settings, NodeKindCatalog.Default.LoadFragments())
                )
            );
        }
        var zip = ArtifactZip.Create(run);

        var plan = ReplayPlan.Load(zip, OptionParser.Parse(["--replay", zip, "--results", "elsewhere"]));

        Assert.Equal("AlicePaysBobViaCarols", plan.Options.Scenario);
        Assert.Equal([1, 4], plan.Options.Sweeps["CarolsCount"]);
        Assert.Equal(7, plan.Options.Iterations);
        Assert.Equal("x:1", plan.Options.Builds.Single().Image);
        Assert.Equal("btc:1", plan.Options.BitcoindImage);
        Assert.Equal("elsewhere", plan.Options.ResultsRoot);
        Assert.Equal("20261121-101010-abcd", plan.Options.ReplayOf);
        var stored = RunArchive.ReadAll(zip, "docker-compose.yml");
        foreach (var carols in plan.Options.Sweeps["CarolsCount"])
        {
            var topology = AlicePaysBobViaCarols.TopologyFor(
                plan.Options.Builds[0],
                plan.Options.BitcoindImage,
                carols
            );
            Assert.Equal(
                stored[$"cases/CarolsCount-{carols}/docker-compose.yml"],
                ComposeYaml.Serialize(
                    ComposeGenerator.Generate(topology, settings, NodeKindCatalog.Default.LoadFragments())
                )
            );
        }
    }

    /// <summary>A build comparison from before --pairing measured its arms one after the other, and its replay does; one that alternated alternates again.</summary>
    [Theory]
    [InlineData("fresh topologies, one per arm with the same Topology index, started one after the other", false)]
    [InlineData("sequential: fresh topologies, one per arm", false)]
    [InlineData("alternate: fresh topologies, one per arm with the same Topology index, set up together", true)]
    public void A_replay_pairs_its_arms_as_the_run_did(string pairing, bool alternates)
    {
        string[] arguments = ["AlicePaysBob", "--build", "a=x:1", "--build", "b=x:2"];
        var run = Directory
            .CreateDirectory(
                Path.Combine(directory, $"20261121-101010-{(alternates ? "alt" : "seq")}{pairing.Length}-AlicePaysBob")
            )
            .FullName;
        (SampleManifest(arguments) with { Pairing = pairing }).Write(run);

        var plan = ReplayPlan.Load(run, OptionParser.Parse(["--replay", run]));

        Assert.Equal(alternates, plan.Options.AlternatesArms);
    }

    [Fact]
    public void Replay_refuses_a_folder_that_is_not_a_run()
    {
        Assert.Contains(
            "has no manifest.json",
            Assert.Throws<FileNotFoundException>(() => ReplayPlan.Load(directory, new HarnessOptions())).Message
        );
    }

    [Fact]
    public void Compare_judges_the_shared_cases_over_topologies_with_the_runs_method_unpaired()
    {
        static CaseSummary Case(string build, int concurrency, int topology, double[] iterations) =>
            new(
                $"Build={build}, Concurrency={concurrency}, Topology={topology}, Traces=on",
                new Dictionary<string, string>
                {
                    ["Build"] = build,
                    ["Concurrency"] = $"{concurrency}",
                    ["Topology"] = $"{topology}",
                    ["Traces"] = "on",
                },
                iterations.Average(),
                1,
                iterations,
                concurrency,
                concurrency / iterations.Average() * 1000,
                iterations.Min(),
                iterations.Max(),
                10,
                0,
                true
            );
        var a = new RunSummary(
            "run-a",
            "AlicePaysBob",
            "in payment",
            [
                Case("Og", 1, 1, [80, 82]),
                Case("Og", 1, 2, [84, 86]),
                Case("Og", 1, 3, [78, 79]),
                Case("Og", 10, 1, [190, 180]),
            ]
        );
        var b = new RunSummary(
            "run-b",
            "AlicePaysBob",
            "in payment",
            [
                Case("O2", 1, 1, [60, 61]),
                Case("O2", 1, 2, [63, 64]),
                Case("O2", 1, 3, [59, 58]),
                Case("O2", 4, 1, [100, 101]),
            ]
        );
        var dirA = Directory.CreateDirectory(Path.Combine(directory, "a")).FullName;
        var dirB = Directory.CreateDirectory(Path.Combine(directory, "b")).FullName;
        a.Write(dirA);
        b.Write(dirB);
        (SampleManifest(["AlicePaysBob"]) with { RunId = "run-a" }).Write(dirA);
        (SampleManifest(["AlicePaysBob"]) with { RunId = "run-b" }).Write(dirB);

        var table = RunComparison.Render(
            dirA,
            RunSummary.Read(RunArchive.ReadText(dirA, RunSummary.FileName)),
            dirB,
            RunSummary.Read(RunArchive.ReadText(dirB, RunSummary.FileName)),
            thresholdPercent: 2,
            seed: 1
        );

        Assert.Contains("weaker evidence than the same difference within one run", table);
        Assert.Matches(
            @"\| Concurrency=1 \| mean time \| Og \| O2 \| 81\.5 ms \| 60\.8 ms \| 0\.74\d \| 0\.\d+ – 0\.\d+ \| 3 \+ 3 \| [0-9.]+ \| faster \|",
            table
        );
        Assert.Matches(
            @"\| Concurrency=1 \| payments/s \| Og \| O2 \| .* \| 1\.34\d \| .* \| 3 \+ 3 \| .* \| faster \|",
            table
        );
        Assert.Contains("not in both: A Concurrency=10; B Concurrency=4", table);
        Assert.Contains("A case with one topology has no interval", table);

        // The command writes the comparison's page too, its verdicts coloured.
        var results = Directory.CreateDirectory(Path.Combine(directory, "results")).FullName;
        Assert.Equal(
            0,
            Program.Run(
                ["--compare", dirA, dirB, "--results", results],
                Lightning.Bench.NodeKinds.NodeKindCatalog.Default
            )
        );
        var page = File.ReadAllText(Path.Combine(results, "compare-run-a-vs-run-b", ReportHtml.FileName));
        Assert.Contains("<title>Lightning.Bench: run run-b against run run-a</title>", page);
        Assert.Contains("<td class=\"verdict-faster\">faster</td>", page);
    }

    /// <summary>Instructions per payment as a counted run's summary has them.</summary>
    private static readonly InstructionsPerPayment Counted = new(
        new Dictionary<string, double> { ["bob"] = 1e6 },
        new Dictionary<string, IReadOnlyDictionary<string, double>>
        {
            ["bob"] = new Dictionary<string, double> { ["lightningd"] = 1e6 },
        },
        10
    );

    [Fact]
    public void Compare_refuses_in_one_line_runs_measured_under_different_conditions_and_joins_runs_measured_alike()
    {
        static CaseSummary Case(int topology, double[] iterations, bool counted = false) =>
            new(
                $"Build=a, Concurrency=1, Topology={topology}, Traces=on",
                new Dictionary<string, string>
                {
                    ["Build"] = "a",
                    ["Concurrency"] = "1",
                    ["Topology"] = $"{topology}",
                    ["Traces"] = "on",
                },
                iterations.Average(),
                1,
                iterations,
                1,
                1000 / iterations.Average(),
                iterations.Min(),
                iterations.Max(),
                10,
                0,
                true,
                Instructions: counted ? Counted : null
            );
        string Write(string name, RunSummary summary, MeasurementConditions? conditions)
        {
            var dir = Directory.CreateDirectory(Path.Combine(directory, name)).FullName;
            summary.Write(dir);
            (SampleManifest(["AlicePaysBob"]) with { RunId = summary.RunId, Conditions = conditions }).Write(dir);
            return dir;
        }
        var plain = Write(
            "plain",
            new RunSummary("run-plain", "AlicePaysBob", "in payment", [Case(1, [50, 51]), Case(2, [52, 53])])
            {
                Conditions = new MeasurementConditions(),
            },
            new MeasurementConditions()
        );
        var counted = Write(
            "counted",
            new RunSummary("run-counted", "AlicePaysBob", "in payment", [Case(1, [500, 510]), Case(2, [520, 530])])
            {
                Conditions = new MeasurementConditions { UnderValgrind = true },
            },
            new MeasurementConditions { UnderValgrind = true }
        );
        var results = Directory.CreateDirectory(Path.Combine(directory, "results")).FullName;
        var error = new StringWriter();
        var before = Console.Error;
        Console.SetError(error);
        try
        {
            // The same image, once plain and once under Valgrind: 10x "slower" would be false; the run says why not.
            Assert.Equal(
                2,
                Program.Run(
                    ["--compare", plain, counted, "--results", results],
                    Lightning.Bench.NodeKinds.NodeKindCatalog.Default
                )
            );
        }
        finally
        {
            Console.SetError(before);
        }
        var line = Assert.Single(error.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal(
            "lnbench: error: A and B were measured differently (B's nodes ran under Valgrind (--instructions) and A's did not): their figures do not mean the same thing; compare runs measured the same way",
            line.TrimEnd()
        );
        Assert.False(Directory.Exists(Path.Combine(results, "compare-run-plain-vs-run-counted")));

        // A run from before conditions were recorded: instruction counts in its summary say its nodes ran under Valgrind.
        var older = RunSummary.Read(RunArchive.ReadText(counted, RunSummary.FileName)) with
        { };
        var olderSummary = new RunSummary(older.RunId, older.Scenario, older.Invoices, [Case(1, [500], counted: true)]);
        Assert.Contains(
            "ran under Valgrind",
            RunComparison.Refusal(
                RunSummary.Read(RunArchive.ReadText(plain, RunSummary.FileName)),
                null,
                olderSummary,
                null
            )
        );

        // Measured alike (a swarm against a swarm): joined.
        var swarm = new MeasurementConditions { Platform = "swarm" };
        Assert.Null(
            RunComparison.Refusal(
                olderSummary with
                {
                    Conditions = swarm,
                    Cases = [Case(1, [50])],
                },
                null,
                olderSummary with
                {
                    Conditions = swarm,
                    Cases = [Case(1, [51])],
                },
                null
            )
        );
        Assert.Contains(
            "A ran on one host, B on swarm",
            RunComparison.Refusal(
                olderSummary with
                {
                    Conditions = new MeasurementConditions(),
                    Cases = [],
                },
                null,
                olderSummary with
                {
                    Conditions = swarm,
                    Cases = [],
                },
                null
            )
        );
    }

    [Fact]
    public void A_replay_that_would_measure_otherwise_than_its_run_is_refused_in_one_line()
    {
        var profiled = SampleManifest(["AlicePaysBob", "--profile-if-available"]) with
        {
            RunId = "run-p",
            Conditions = new MeasurementConditions { Sampling = MeasurementConditions.SamplingOf(99, "dwarf") },
        };
        // This machine cannot profile (--profile-if-available runs on without): the replay's nodes would not be sampled.
        var refusal = ReplayPlan.Refusal(profiled, null, new MeasurementConditions());
        Assert.Equal(
            "this replay would not measure what run run-p did (run run-p's nodes were sampled by perf 99 Hz, dwarf stacks and this replay's not (--profile)): "
                + "its figures could not be set beside that run's; replay it where it can be measured the same way",
            refusal
        );
        Assert.Null(
            ReplayPlan.Refusal(
                profiled,
                null,
                new MeasurementConditions { Sampling = MeasurementConditions.SamplingOf(99, "dwarf") }
            )
        );
        // An older run, without recorded conditions: its files tell (instruction counts: under Valgrind).
        var older = SampleManifest(["AlicePaysBob", "--instructions"]);
        var summary = new RunSummary(
            "r",
            "AlicePaysBob",
            "in payment",
            [
                new CaseSummary(
                    "Build=a, Concurrency=1, Topology=1, Traces=on",
                    new Dictionary<string, string>
                    {
                        ["Build"] = "a",
                        ["Concurrency"] = "1",
                        ["Topology"] = "1",
                        ["Traces"] = "on",
                    },
                    1,
                    1,
                    [1],
                    1,
                    1,
                    1,
                    1,
                    1,
                    0,
                    true,
                    Instructions: Counted
                ),
            ]
        );
        Assert.Contains("ran under Valgrind", ReplayPlan.Refusal(older, summary, new MeasurementConditions()));
        Assert.Null(ReplayPlan.Refusal(older, summary, new MeasurementConditions { UnderValgrind = true }));
    }

    [Fact]
    public void Compare_diffs_two_profiled_runs_per_node_and_reads_their_folded_stacks_from_a_zip()
    {
        // Run A: the baseline build; run B: json_invoice burns 10 more samples per payment on bob, over 3 topologies each.
        string Write(string name, string build, int burn)
        {
            var run = Directory.CreateDirectory(Path.Combine(directory, name)).FullName;
            var cases = new List<CaseProfiles>();
            for (var topology = 1; topology <= 3; topology++)
            {
                var key = $"Build={build}, Concurrency=1, Topology={topology}, Traces=on";
                var file = $"profiles/Build-{build}-Concurrency-1-Topology-{topology}-Traces-on/bob.folded";
                Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(run, file))!);
                var counts = new Dictionary<string, long>
                {
                    ["lightningd;main;io_loop"] = 100 + topology,
                    ["lightningd;main;io_loop;json_invoice"] = 5,
                };
                if (burn > 0)
                {
                    counts["lightningd;main;io_loop;json_invoice;clock_gettime"] = burn * 10 + topology;
                }
                new Profiling.FoldedStacks(counts).WriteFile(Path.Combine(run, file));
                cases.Add(
                    new CaseProfiles(
                        key,
                        new Dictionary<string, string>
                        {
                            ["Build"] = build,
                            ["Concurrency"] = "1",
                            ["Topology"] = $"{topology}",
                            ["Traces"] = "on",
                        },
                        [new ProfileRecord("bob", file, counts.Values.Sum(), 10, 1, 1, counts.Count, 0, 0)],
                        null
                    )
                );
            }
            (
                SampleManifest(["AlicePaysBob", "--profile", "--cln-image", "x:1"]) with
                {
                    RunId = name,
                    Profiling = new ProfilingRecord(99, "dwarf", "perf 6.1", null, cases),
                }
            ).Write(run);
            return run;
        }
        var a = Write("run-a", "base", 0);
        var b = ArtifactZip.Create(Write("run-b", "burn", 10));

        var text = ProfileComparison.Write(a, b, Path.Combine(directory, "out"), thresholdPercent: 2);

        Assert.Contains("## bob: B burn against A base, Concurrency=1, Traces=on", text);
        // 100 + Topology samples over 10 payments at 99 Hz: about 103 ms per payment more, all in clock_gettime; the
        // interval is as wide as sampling ~100 samples allows (the three topologies' own spread is smaller).
        Assert.Matches(
            @"\| `clock_gettime` \| lightningd: main › io_loop › json_invoice \| 0\.00 \| 103\.03 \| \+103\.03 \| \+[0-9.]+ … \+1[0-9][0-9]\.[0-9]+ \(3 \+ 3\) \| grew \|",
            text
        );
        // io_loop's self time is 101–103 samples in both runs: no change, nothing called.
        Assert.Matches(@"\| `io_loop` \| lightningd: main \| [0-9.]+ \| [0-9.]+ \| 0\.00 \| [^|]+ \|  \|", text);
        Assert.Contains("95 % interval (Welch, topologies)", text);
        var svg = Directory.GetFiles(Path.Combine(directory, "out"), "bob.svg", SearchOption.AllDirectories);
        Assert.Single(svg);
        Assert.Contains("clock_gettime", File.ReadAllText(svg[0]));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
