using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Options;

/// <summary>
/// Parses the harness's own options, as <see cref="OptionCatalog"/> declares them, and checks the rules between them;
/// everything after `--` goes to BenchmarkDotNet untouched.
/// </summary>
internal static class OptionParser
{
    public static HarnessOptions Parse(IReadOnlyList<string> args)
    {
        var (bisect, own) = BisectOf(args);
        var options = new HarnessOptions { CommandLine = args.ToList(), Bisect = bisect };
        var scenarioGiven = false;
        var arguments = new OptionArguments(own);
        while (arguments.MoveNext(out var arg))
        {
            if (arg == "--")
            {
                options = options with { BenchmarkDotNetArguments = arguments.Rest() };
                break;
            }
            if (!arg.StartsWith('-'))
            {
                if (scenarioGiven)
                {
                    throw new UsageException(
                        $"unexpected argument '{arg}': name one scenario (see --list); options for BenchmarkDotNet go after `--`"
                    );
                }
                if (ScenarioCatalog.Find(arg) is not { } scenario)
                {
                    throw new UsageException(
                        LooksLikeRun(arg)
                            ? $"'{arg}' looks like a run, not a scenario: runs go right after --publish SITE (or --compare, --spans), before any other option"
                            : $"unknown scenario '{arg}': run with --list to see the scenarios ({string.Join(", ", ScenarioCatalog.All.Select(s => s.Name))})"
                    );
                }
                options = options with { Scenario = scenario.Name };
                scenarioGiven = true;
                continue;
            }

            arguments.BeginOption(arg);
            var option =
                OptionCatalog.Find(arguments.Name)
                ?? throw new UsageException(
                    $"unknown option '{arguments.Name}': run with --help for the harness's options; BenchmarkDotNet's options go after `--` (e.g. ./run.sh AlicePaysBob -- --memory)"
                );
            if (option.IsSwitch && arguments.HasInlineValue)
            {
                throw new UsageException($"{arguments.Name} takes no value");
            }
            options = option.Apply(options, arguments);
        }
        options = CheckSources(options, args);
        var builds = options.Builds.Select(b => b.Name).ToList();
        if (
            options.NodeOptionList.FirstOrDefault(o => o.Build is not null && !builds.Contains(o.Build)) is
            { Build: { } unknown } stray
        )
        {
            throw new UsageException(
                $"--node-option {unknown}:{stray.Option}: there is no build '{unknown}' (the builds: {string.Join(", ", builds)}); name one given with --build NAME=IMAGE"
            );
        }
        if (options.ProbeBuild is { } probeBuild && !builds.Contains(probeBuild))
        {
            throw new UsageException(
                $"--probe {probeBuild}:…: there is no build '{probeBuild}' (the builds: {string.Join(", ", builds)}); name one given with --build NAME=IMAGE"
            );
        }
        if (
            options.DatabaseList.FirstOrDefault(d => d.Build is not null && !builds.Contains(d.Build)) is
            { Build: { } noBuild } strayDb
        )
        {
            throw new UsageException(
                $"--db {noBuild}:{strayDb.Database}: there is no build '{noBuild}' (the builds: {string.Join(", ", builds)}); name one given with --build NAME=IMAGE"
            );
        }
        if (options.UsesPostgres && (options.Swarm || options.Instructions || options.Soak is not null))
        {
            throw new UsageException(
                $"--db postgres runs on one host, with times measured: drop {(options.Swarm ? "--swarm" : options.Instructions ? "--instructions" : "--soak")} or --db postgres"
            );
        }
        if (
            options.GivesHistory
            && options.HistoryOf == NodeKinds.HistoryKinds.Invoices
            && string.Equals(options.Scenario, nameof(Scenarios.HubRoutes), StringComparison.OrdinalIgnoreCase)
        )
        {
            throw new UsageException(
                "--history-of invoices is a payee's history and the hub pays nobody: give the hub moves, payments or forwards (or the invoices to LargeNode)"
            );
        }
        if (options.BuildList.Count > 0 && Given(args, "--cln-image"))
        {
            throw new UsageException(
                "--cln-image and --build do not go together: give every image in --build NAME=IMAGE"
            );
        }
        if (
            options.Replay is not null
            && (
                scenarioGiven
                || args.Any(a => a.StartsWith('-') && OptionCatalog.Find(a.Split('=')[0]) is not { KeptByReplay: true })
            )
        )
        {
            throw new UsageException(
                "--replay takes the scenario, parameters and images from the run it replays: give only --replay RUN.zip (with --results or --no-zip if needed)"
            );
        }
        if (options.SpansOut is not null && options.Spans is null)
        {
            throw new UsageException("--out says where --spans writes: add --spans RUN.zip (or drop --out)");
        }
        if (Given(args, "--order") && options.Publish.Count == 0)
        {
            throw new UsageException(
                "--order says how --publish orders a site's runs: add --publish SITE RUN… (or drop --order)"
            );
        }
        if (options.IncludeBusy && options.Publish.Count == 0)
        {
            throw new UsageException(
                "--include-busy says whether --publish counts busy runs in change points: add --publish SITE RUN… (or drop --include-busy)"
            );
        }
        if (Given(args, "--graph-store") && options.GraphPath is null)
        {
            throw new UsageException(
                "--graph-store says how --graph's snapshot is written into the payer's gossip store: add --graph PATH (or drop --graph-store)"
            );
        }
        var chosen = ScenarioCatalog.Get(options.Scenario);
        CheckGraph(options, chosen);
        if (Given(args, "--history-of") && chosen.Parameters.All(p => p.Name != nameof(LargeNode.HistoryRows)))
        {
            throw new UsageException(
                $"--history-of says what --history is (LargeNode's, HubRoutes's); {chosen.Name} has no history: run LargeNode or HubRoutes, or drop --history-of"
            );
        }
        CheckWorkloads(options, chosen);
        CheckSoak(options, args, chosen);
        CheckProfile(options, args);
        CheckInstructions(options, args);
        CheckMaxTime(options);
        CheckSwarm(options);
        CheckPlacements(options, chosen);
        if (options.MaxTime is not null && !Given(args, "--topologies"))
        {
            // The confidence sequence is the whole line before its fourth pair: the first round makes four.
            options = options with
            {
                Topologies = Statistics.ConfidenceSequence.FirstFinite,
            };
        }
        if (options.Instructions)
        {
            // A topology's instruction window spans 40 payments (at Concurrency=1, forty invocations); four topology
            // pairs by default, as each costs about 45 s of setup under Valgrind. Concurrency=1 unless asked: with
            // payments at once, what a payment executes depends on how they interleave (HTLCs batched into one
            // commitment or not), which Valgrind's slowdown changes, and varies 2–3 % from topology to topology.
            options = options with
            {
                Iterations = Given(args, "--iterations")
                    ? options.Iterations
                    : HarnessOptions.InstructionWindowPayments,
                Topologies = Given(args, "--topologies")
                    ? options.Topologies
                    : HarnessOptions.InstructionDefaultTopologies,
                Sweeps =
                    Given(args, "--concurrency") || chosen.Parameters.All(p => p.Name != ConcurrencyParameter)
                        ? options.Sweeps
                        : new Dictionary<string, IReadOnlyList<int>>(options.Sweeps) { [ConcurrencyParameter] = [1] },
            };
        }
        if (options.Soak is not null)
        {
            options = options with { Traces = [TraceModes.Off] };
        }
        foreach (var swept in options.Sweeps.Keys.Where(k => chosen.Parameters.All(p => p.Name != k)))
        {
            var parameter = ScenarioCatalog.AllParameters.Single(p => p.Name == swept);
            var owners = ScenarioCatalog.All.Where(s => s.Parameters.Contains(parameter)).Select(s => s.Name);
            throw new UsageException(
                $"{parameter.Option} does not apply to {chosen.Name}: it sets {parameter.Name} of {string.Join(", ", owners)}"
            );
        }
        return options with { IterationsGiven = Given(args, "--iterations") };
    }

    /// <summary>"bisect GOOD BAD …": the two refs, and the arguments after them; any other command line as it is.</summary>
    private static (BisectRefs? Bisect, IReadOnlyList<string> Arguments) BisectOf(IReadOnlyList<string> args)
    {
        if (args.Count == 0 || args[0] != BisectRefs.Command)
        {
            return (null, args);
        }
        if (args.Count > 1 && args[1].StartsWith("--resume", StringComparison.Ordinal))
        {
            return (null, args.Skip(1).ToList());
        }
        if (args.Count < 3 || args[1].StartsWith('-') || args[2].StartsWith('-'))
        {
            throw new UsageException(
                "bisect takes GOOD and BAD, two refs of --source, before the scenario: ./run.sh bisect GOOD BAD SCENARIO --source DIR --metric NAME … (or ./run.sh bisect --resume DIR)"
            );
        }
        return (new BisectRefs(args[1], args[2]), args.Skip(3).ToList());
    }

    /// <summary>
    /// Builds from source refs need their checkout; a bisection makes its own two builds (GOOD's commit and the commit
    /// at hand; the first step is GOOD against BAD, which is what the rules here check) and needs its metric; the gate
    /// needs verdicts.
    /// </summary>
    private static HarnessOptions CheckSources(HarnessOptions options, IReadOnlyList<string> args)
    {
        var bisectCommand = args.Count > 0 && args[0] == BisectRefs.Command;
        if (options.BisectResume is not null)
        {
            if (!bisectCommand || args.Count != 3)
            {
                throw new UsageException(
                    "--resume goes on with a bisection from its folder, which holds everything else: give only ./run.sh bisect --resume DIR"
                );
            }
            return options;
        }
        if (!bisectCommand && BisectRefs.OwnOptions.FirstOrDefault(o => Given(args, o)) is { } own)
        {
            throw new UsageException(
                $"{own} applies to a bisection: ./run.sh bisect GOOD BAD SCENARIO --source DIR --metric NAME …"
            );
        }
        if (options.Bisect is { } bisect)
        {
            if (options.BuildList.Count > 0 || Given(args, "--cln-image"))
            {
                throw new UsageException(
                    $"bisect makes its two builds ({BisectRefs.GoodBuild}=git:GOOD and {BisectRefs.CandidateBuild}=git:COMMIT at each step): drop --build and --cln-image"
                );
            }
            if (options.BisectMetric is null)
            {
                throw new UsageException(
                    "bisect needs the metric that stepped: add --metric NAME as comparison.md names it (e.g. --metric 'storage/attempt')"
                );
            }
            if (
                new[]
                {
                    "--soak",
                    "--replay",
                    "--compare",
                    "--publish",
                    "--fail-on",
                    "--built-images",
                    "--prune-built",
                    "--spans",
                    "--report",
                }.FirstOrDefault(o => Given(args, o)) is
                { } other
            )
            {
                throw new UsageException($"bisect compares two builds at each step: {other} does not go with it");
            }
            options = options with
            {
                BuildList =
                [
                    new BuildSpec(
                        BisectRefs.GoodBuild,
                        SourceRef.Prefix + bisect.Good,
                        new Dictionary<string, string>()
                    ),
                    new BuildSpec(
                        BisectRefs.CandidateBuild,
                        SourceRef.Prefix + bisect.Bad,
                        new Dictionary<string, string>()
                    ),
                ],
            };
        }
        var refs = options.Builds.SelectMany(b => b.Images).Select(i => i.Image).Where(SourceRef.Is).ToList();
        if (
            refs.FirstOrDefault(r => SourceRef.Of(r) is var name && (name.Length == 0 || name.StartsWith('-'))) is
            { } bad
        )
        {
            throw new UsageException(
                $"'{bad}' is not git:REF: give a tag, branch or commit of --source after git: (e.g. git:v26.06.6)"
            );
        }
        if (refs.Count > 0 && options.SourceDirectory is null)
        {
            throw new UsageException(
                $"{(options.Bisect is null ? "a build given as git:REF" : "bisect")} is made from a checkout's commits: add --source DIR (a git checkout of the implementation)"
            );
        }
        if (options.ImageCommand is not null && options.SourceDirectory is null)
        {
            throw new UsageException("--image-command makes git:REF builds from --source's commits: add --source DIR");
        }
        if (options.SourceDirectory is not null && refs.Count == 0 && !options.PruneBuilt && !options.ListBuilt)
        {
            throw new UsageException(
                "--source is the checkout that git:REF builds are made from: give --build NAME=git:REF (or drop --source)"
            );
        }
        if (options.FailOn.Count > 0 && options.BuildList.Count < 2)
        {
            throw new UsageException(
                "--fail-on judges the builds' verdicts: give two builds or more (--build base=IMAGE --build mine=IMAGE)"
            );
        }
        if (options.FailOn.Count > 0 && options.Swarm)
        {
            // A swarm run's shares are judged together by the run that started them, each share's exit its own.
            throw new UsageException(
                "--fail-on does not go with --swarm yet: judge its verdicts.json in the job (see docs/ci.md), or drop --swarm"
            );
        }
        return options;
    }

    /// <summary>A soak runs one case on one topology, without traces (hours of spans would fill the disk).</summary>
    private static void CheckSoak(HarnessOptions options, IReadOnlyList<string> args, ScenarioInfo scenario)
    {
        if (options.Soak is null)
        {
            foreach (var option in new[] { "--budget", "--sample-interval" }.Where(o => Given(args, o)))
            {
                throw new UsageException(
                    $"{option} applies to soak runs: add --soak DURATION|PAYMENTS (e.g. --soak 2h)"
                );
            }
            return;
        }
        if (options.BuildList.Count > 1)
        {
            throw new UsageException(
                "--soak runs one build on one topology: give at most one --build (compare soaks with --compare A.zip B.zip)"
            );
        }
        foreach (var (parameter, values) in options.Sweeps.Where(s => s.Value.Count > 1))
        {
            var option = scenario.Parameters.Single(p => p.Name == parameter).Option;
            throw new UsageException(
                $"--soak runs one case: give one value of {option} (not {string.Join(",", values)})"
            );
        }
        if (options.Traces.Any(t => t != TraceModes.Off) && (Given(args, "--traces") || Given(args, "--trace-check")))
        {
            throw new UsageException(
                "--soak runs with traces off (hours of spans would fill the disk and the trace queue): drop --traces/--trace-check"
            );
        }
        if (options.Workloads.Any(w => w != Workloads.WorkloadCatalog.Default.Name))
        {
            throw new UsageException(
                $"--soak drives payments that succeed: drop --workload {string.Join(",", options.Workloads)} (a benchmark runs it)"
            );
        }
        if (
            Given(args, "--topologies")
            || Given(args, "--iterations")
            || Given(args, "--warmups")
            || Given(args, "--pregenerate-invoices")
        )
        {
            throw new UsageException(
                "--soak runs one topology continuously: --topologies, --iterations, --warmups and --pregenerate-invoices do not apply"
            );
        }
    }

    private const string ConcurrencyParameter = "Concurrency";

    /// <summary>A swarm run is a timed benchmark whose nodes are reached through agents: what needs the nodes' folders on this host does not apply.</summary>
    private static void CheckSwarm(HarnessOptions options)
    {
        if (options.Swarm && (options.GivesHistory || options.GraphPath is not null))
        {
            throw new UsageException(
                $"{(options.GraphPath is not null ? "--graph" : "--history")} writes into a stopped node's folder on this host: run it without --swarm"
            );
        }
        if (options.TopologyRange is { } range && range.Last > options.Topologies)
        {
            throw new UsageException(
                $"--topology-range {range.First}-{range.Last} goes past --topologies {options.Topologies}: give --topologies {range.Last} or more"
            );
        }
        if (!options.Swarm)
        {
            var swarmOnly =
                options.SideBySide is not null ? "--side-by-side"
                : options.SwarmHost is not null ? "--swarm-host"
                : options.Placements.Count > 0 ? "--place"
                : null;
            if (swarmOnly is not null)
            {
                throw new UsageException($"{swarmOnly} places topologies on a swarm's hosts: add --swarm");
            }
            return;
        }
        if (options.SideBySide is not null && (options.SwarmHost is not null || options.TopologyRange is not null))
        {
            throw new UsageException(
                $"--side-by-side gives each share its host and topologies itself: drop {(options.SwarmHost is not null ? "--swarm-host" : "--topology-range")}"
            );
        }
        if (options.SideBySide is > 1 && options.MaxTime is not null)
        {
            throw new UsageException(
                "--side-by-side does not take --max-time yet (a budget's rounds decide on one process's confidence sequences): drop one"
            );
        }
        (string Option, string Why)? refused =
            options.Soak is not null ? ("--soak", "a soak's samplers read the nodes' folders on this host")
            : options.Instructions ? ("--instructions", "Valgrind is brought from this host into each node's container")
            : options.TraceCheck
                ? ("--trace-check", "Core Lightning's trace file is read from the nodes' folders on this host")
            : options.Traces.Contains(TraceModes.Unread) ? ("--traces unread", "the agent reads every socket it binds")
            : options.WithCompose ? ("--with-compose", "a swarm's stacks are deployed through the Engine API")
            : null;
        if (refused is { } r)
        {
            throw new UsageException($"--swarm does not run {r.Option} yet ({r.Why}): drop {r.Option} or --swarm");
        }
    }

    /// <summary>Every placed node is a node of the scenario's topologies at the values swept, and no topology has every node placed apart.</summary>
    private static void CheckPlacements(HarnessOptions options, ScenarioInfo scenario)
    {
        if (options.Placements.Count == 0)
        {
            return;
        }
        var topologies = scenario.TopologyNodes(options.Sweeps);
        var nodes = topologies.SelectMany(t => t).Distinct().ToList();
        foreach (var node in options.Placements.Keys.Where(n => !nodes.Contains(n)))
        {
            throw new UsageException(
                $"--place {node}={options.Placements[node]}: {scenario.Name} has no node {node} at the parameters given (its nodes: {string.Join(", ", nodes)})"
            );
        }
        if (topologies.FirstOrDefault(t => t.All(options.Placements.ContainsKey)) is { } all)
        {
            throw new UsageException(
                $"--place puts every node of a topology ({string.Join(", ", all)}) apart from its bitcoind: leave one with it, or run on the labelled host with --swarm-host HOST"
            );
        }
    }

    /// <summary>A budgeted run waits for build verdicts: it needs two builds, and is a timed benchmark.</summary>
    private static void CheckMaxTime(HarnessOptions options)
    {
        if (options.MaxTime is not { } budget)
        {
            if (options.DecideOn.Count > 0)
            {
                throw new UsageException(
                    "--decide-on names the verdicts a budgeted run waits for: add --max-time (e.g. --max-time 10m)"
                );
            }
            return;
        }
        if (options.BuildList.Count < 2)
        {
            throw new UsageException(
                "--max-time adds topology pairs until the builds' verdicts decide: give two builds or more (--build base=IMAGE --build mine=IMAGE)"
            );
        }
        if (options.Soak is not null || options.Instructions)
        {
            throw new UsageException(
                $"--max-time budgets a timed comparison: drop {(options.Soak is not null ? "--soak" : "--instructions")} (or --max-time)"
            );
        }
        if (budget < TimeSpan.FromMinutes(1))
        {
            throw new UsageException(
                $"--max-time {budget.TotalSeconds:0}s is shorter than one round of topologies: give a minute or more (e.g. --max-time 10m)"
            );
        }
    }

    /// <summary>An instruction run is a benchmark of its own: no soak, no perf (it would sample Valgrind, not the node).</summary>
    private static void CheckInstructions(HarnessOptions options, IReadOnlyList<string> args)
    {
        if (!options.Instructions)
        {
            if (Given(args, "--instructions-threshold"))
            {
                throw new UsageException("--instructions-threshold applies to instruction runs: add --instructions");
            }
            return;
        }
        if (options.Soak is not null)
        {
            throw new UsageException(
                "--instructions counts a benchmark's measured invocations, not a soak: drop --soak (or --instructions)"
            );
        }
        if (options.ProfileMode != ProfileMode.Off)
        {
            throw new UsageException(
                "--profile under Valgrind would sample Valgrind, not the node: drop --profile (--instructions gives each function's instructions per payment)"
            );
        }
    }

    private static void CheckProfile(HarnessOptions options, IReadOnlyList<string> args)
    {
        if (options.ProfileMode == ProfileMode.Off)
        {
            foreach (
                var option in new[] { "--profile-frequency", "--profile-stacks", "--profile-every" }.Where(o =>
                    Given(args, o)
                )
            )
            {
                throw new UsageException($"{option} applies to profiled runs: add --profile");
            }
            return;
        }
        if (Given(args, "--profile") && Given(args, "--profile-if-available"))
        {
            throw new UsageException(
                "give one of --profile (stop if the machine cannot profile) and --profile-if-available (run on without profiles)"
            );
        }
        if (options.Soak is null && Given(args, "--profile-every"))
        {
            throw new UsageException(
                "--profile-every spaces a soak's profile windows: add --soak DURATION|PAYMENTS (a benchmark samples every other measured iteration)"
            );
        }
        if (
            options.Soak is { Duration: { } duration }
            && options.ProfileEvery is { } every
            && every + ProfileSettings.SoakWindowLength > duration
        )
        {
            throw new UsageException(
                $"--profile-every {every.TotalSeconds:0}s leaves no profile window in a soak of {duration.TotalSeconds:0}s: give a shorter interval"
            );
        }
        if (options.Soak is null && options.Iterations < 2)
        {
            throw new UsageException(
                "--profile samples every other measured iteration (the others measure what sampling costs): give --iterations 2 or more"
            );
        }
    }

    /// <summary>Whether the command line gives <paramref name="option"/> (as --name or --name=value).</summary>
    private static bool Given(IReadOnlyList<string> args, string option) =>
        args.Any(a => a == option || a.StartsWith(option + "=", StringComparison.Ordinal));

    /// <summary>Each workload fits each of the scenario's topologies: its own rule, and a single-part payment's amount fits its channels.</summary>
    /// <summary>A zip or a folder given where a scenario goes: most likely a run meant for --publish or --compare, stranded by an option in between.</summary>
    private static bool LooksLikeRun(string arg) =>
        arg.EndsWith(".zip", StringComparison.OrdinalIgnoreCase) || Directory.Exists(arg);

    /// <summary>MainnetGraph needs its graph, and only it takes one (the file itself is read before any container starts).</summary>
    private static void CheckGraph(HarnessOptions options, ScenarioInfo scenario)
    {
        var graphScenario = scenario.Name == nameof(MainnetGraph);
        if (graphScenario && options.GraphPath is null && options.Replay is null && !options.List && !options.Help)
        {
            throw new UsageException(
                "MainnetGraph needs --graph PATH: Core Lightning's tests/data/gossip-store-2026-02-03.compressed (in its checkout)"
            );
        }
        if (!graphScenario && options.GraphPath is not null)
        {
            throw new UsageException(
                $"--graph gives MainnetGraph's payer the mainnet graph; {scenario.Name} takes none: run MainnetGraph, or drop --graph"
            );
        }
        if (options.GraphNode is not null && options.GraphPath is null)
        {
            throw new UsageException(
                "--graph-node says which node of --graph's snapshot is the payer's peer: add --graph PATH (or drop --graph-node)"
            );
        }
    }

    private static void CheckWorkloads(HarnessOptions options, ScenarioInfo scenario)
    {
        var workloads = (options.Workloads.Count > 0 ? options.Workloads : [scenario.Workload])
            .Select(Workloads.WorkloadCatalog.Get)
            .ToList();
        foreach (var topology in scenario.Topologies(options.Sweeps))
        {
            foreach (var workload in workloads)
            {
                var shaped = workload.Shape(topology);
                if (workload.Refusal(shaped) is { } why)
                {
                    throw new UsageException($"--workload {workload.Name} does not fit {scenario.Name}: {why}");
                }
                // A channel keeps 1 % of its capacity in reserve on each side: a single-part payment above what is left cannot pass.
                var smallest = shaped
                    .Channels.Select(c => c.CapacitySat * 1000 * 99 / 100 - c.PushMsat)
                    .DefaultIfEmpty(long.MaxValue)
                    .Min();
                var concurrency =
                    scenario.Parameters.FirstOrDefault(p => p.Name == "Concurrency")?.ValuesFrom(options.Sweeps).Max()
                    ?? 1;
                if (
                    workload.SplitsPayments
                    && workload.SplitRefusal(shaped, options.AmountMsat, concurrency) is { } notSplit
                )
                {
                    throw new UsageException($"--workload {workload.Name} on {scenario.Name}: {notSplit}");
                }
                if (!workload.SplitsPayments && options.AmountMsat > smallest)
                {
                    throw new UsageException(
                        $"--amount-msat {options.AmountMsat} is more than one channel of {scenario.Name} can carry for --workload {workload.Name} ({smallest} msat): lower it, or use a workload that splits payments"
                    );
                }
            }
        }
    }
}
