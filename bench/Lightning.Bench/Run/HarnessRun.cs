using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Cases;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Run;

/// <summary>
/// One run, top to bottom: the engine and compose, leftovers of earlier runs swept, images checked, the datagram
/// queue raised, the chain seeded, then BenchmarkDotNet over the scenario's cases (each a <see cref="CaseLifecycle"/>)
/// or a soak, and the one shutdown (<see cref="RunShutdown"/>) whoever gets there first: the normal end, a failure or
/// a signal (<see cref="RunInterrupt"/>).
/// </summary>
internal static class HarnessRun
{
    /// <param name="replayed">With --replay: the run replayed, whose conditions this one must measure under.</param>
    public static async Task<int> RunAsync(HarnessOptions options, ComposeFragments fragments, NodeKindCatalog kinds, ReplayPlan? replayed = null)
    {
        // Disposed last: the shutdown's lines (results, the run's page) are the log's last.
        using var log = new RunLog();
        var progress = CreateProgress(options, log);
        var scenario = ScenarioCatalog.Get(options.Scenario);
        // With a live display BenchmarkDotNet's log goes to the run folder only: it would scroll the display away.
        var output = new BenchmarkOutput(new RunLogLogger(log, progress.IsLive ? null : ConsoleLogger.Default));
        var shutdown = new RunShutdown(progress);
        using var interrupt = new RunInterrupt(shutdown, output, progress);
        DockerEngine? engine = null;
        var exitCode = HarnessExit.Failure;
        try
        {
            // Before any container: a run that cannot profile says so now, not after its first case.
            var (perfVersion, profileSkipped) = await CheckProfilingAsync(options, progress);
            var valgrind = options.Instructions ? await Instructions.HostValgrind.FindAsync() : null;
            // Before any container: the graph read and checked (its subgraphs and queries take the run's seed).
            Graph.RunGraph? graph = null;
            if (options.GraphPath is { } graphPath)
            {
                options = options with { Seed = options.Seed ?? Random.Shared.Next() };
                using (progress.Begin($"reading the graph {graphPath}"))
                {
                    graph = Graph.RunGraph.Load(graphPath, options.GraphNode ?? Graph.RunGraph.DefaultMappedIndex, options.Seed.Value);
                    graph.Ids.DeriveAll(Enumerable.Range(0, graph.Snapshot.NodeCount));
                }
                progress.Info($"graph {Path.GetFileName(graph.Path)}: {graph.Snapshot.NodeCount:N0} nodes, {graph.Snapshot.Channels.Count:N0} channels; node {graph.MappedIndex} ({graph.Name(graph.MappedIndex)}) is {Scenarios.MainnetGraph.Mapped}; seed {graph.Seed}"
                    + (graph.Map is null ? "; no node map beside it (destinations are named by index)" : ""));
            }
            if (replayed is not null && ReplayPlan.Refusal(replayed.Manifest, replayed.Summary, new MeasurementConditions
                {
                    Platform = options.Swarm ? Swarm.SwarmPlatform.PlatformName : SingleHostPlatform.PlatformName,
                    UnderValgrind = valgrind is not null,
                    Sampling = perfVersion is null ? null : MeasurementConditions.SamplingOf(options.Profile!.FrequencyHz, options.Profile.CallGraph),
                    BackToBack = options.BackToBack,
                }) is { } refusal)
            {
                progress.StopDisplay();
                return HarnessExit.Fail(HarnessExit.Usage, refusal);
            }
            engine = new DockerEngine(DockerEndpoint.Resolve());
            var dockerVersion = await engine.GetVersionAsync();
            IComposeRunner compose = options.WithCompose ? await ComposeCli.DetectAsync(engine.Endpoint) : new EngineComposeRunner(engine);
            progress.Info($"Docker engine {dockerVersion} (API {engine.ApiVersion}) at {engine.Host} ({engine.Endpoint.Source}), {compose.Version}");
            await SweepLeftoversAsync(engine, options, progress);
            // A --build that did not name its node kind has it recognised from its image, before anything else reads the builds.
            options = await KindRecognition.RecogniseAsync(options, kinds, new ImageProvisioner(engine, progress, RunLabels.For("recognise")), progress);
            var limit = new DatagramQueueLimit();
            limit.RestoreLeftover(progress);

            var run = shutdown.Run = new RunContext(options, scenario, engine, compose, fragments, kinds, progress,
                perfVersion is null ? null : runId => Profiling.RunProfiling.Create(options.Profile!, perfVersion, options.WorkRoot, runId), valgrind)
            {
                ProfileSkipped = profileSkipped,
                Graph = graph,
            };
            var images = await CheckImagesAsync(engine, options, kinds, progress, run.RunId);
            if (valgrind is not null)
            {
                await Instructions.InstructionsPreflight.CheckAsync(engine, valgrind,
                    options.Builds.SelectMany(b => b.Images).Select(i => (i.Image, kinds.Get(i.Kind))), RunLabels.For(run.RunId), HostUser.ContainerUser, progress);
                progress.Info($"counting instructions with {valgrind.Version} (callgrind, brought from the host): every Lightning node runs about ten times slower, " +
                    "so this run's times are not compared");
            }
            if (options.Swarm)
            {
                run.Platform = await Swarm.SwarmPlatform.StartAsync(engine, kinds, run.RunId, images.Select(i => i.Name).Distinct().ToList(), options.WorkRoot, progress, run.Cancellation,
                    perf: run.Profiling is null ? null : Profiling.PerfSupport.Locate(options.Profile!.PerfPath), onlyHost: options.SwarmHost,
                    placements: options.Placements.Values);
            }
            shutdown.Record(MachineRecord.Collect(dockerVersion, engine.ApiVersion?.ToString() ?? "", compose.Version), images);
            progress.Info($"run {run.RunId}: results in {run.ResultsDirectory}");
            Directory.CreateDirectory(run.ResultsDirectory);
            log.Open(Path.Combine(run.ResultsDirectory, RunLog.FileName));
            progress.Model.Describe(scenario.Name, run.RunId, run.Started, options.MaxTime);
            progress.Model.SetActivity(options.Soak is null ? "seeding the run's chain" : "seeding the run's chain for the soak");
            progress.StartDisplay();

            shutdown.QueueLimit = options.Traces.Contains(TraceModes.On) ? limit.Ensure(progress) : null;
            await run.SeedChainAsync();
            progress.Model.SetActivity(options.Soak is null ? "BenchmarkDotNet is finding the cases" : "soak: one case driven continuously");
            exitCode = options.Soak is null ? RunBenchmarks(run, output, shutdown) : await RunSoakAsync(run, shutdown);
        }
        catch (UsageException e)
        {
            // Bad input found once the images could be read (an option a build's node does not know, a release too old).
            progress.StopDisplay();
            log.WriteLine($"lnbench: error: {e.Message}");
            exitCode = HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        catch (Exception e) when (e is DockerUnavailableException or DockerApiException or ImageUnavailableException or NodeDiedException
            or WaitTimeoutException or TimeoutException or ToolNotFoundException or Profiling.ProfilingUnavailableException or Instructions.InstructionsUnavailableException or IOException or UnauthorizedAccessException or InvalidDataException
            or Swarm.SwarmUnavailableException or System.Net.Sockets.SocketException or Swarm.Relay.RelayRefusedException)
        {
            progress.StopDisplay();
            log.WriteLine($"lnbench: error: {e.Message}");
            exitCode = HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
        finally
        {
            // The shutdown's lines and errors print plain, under the display's last frame.
            progress.StopDisplay();
            await shutdown.RunAsync(partial: exitCode != 0, byInterrupt: false);
            await interrupt.EndAsync();
            engine?.Dispose();
        }
        return VerdictsReport.GateExit(exitCode == 0 && shutdown.OutputsFailed > 0 ? HarnessExit.Failure : exitCode, options.FailOn, shutdown.Run?.Results.Comparisons, progress);
    }

    /// <summary>BenchmarkDotNet over the scenario's cases, then the comparisons and their tables; non-zero when a case failed.</summary>
    private static int RunBenchmarks(RunContext run, BenchmarkOutput output, RunShutdown shutdown)
    {
        if (run.Options.MaxTime is { } budget)
        {
            return RunBudgeted(run, output, shutdown, budget);
        }
        var options = run.Options;
        var config = BenchConfig.Create(options, run.Kinds, run.ResultsDirectory, run.Results, run.Plan, output, alternatingArms: run.Alternating ? run.Arms : 1,
            progress: run.Progress.Model);
        Summary summary;
        using (BenchmarkHost.Host(run))
        {
            summary = BenchmarkRunner.Run(run.Scenario.BenchmarkType, config, options.BenchmarkDotNetArguments.ToArray());
        }
        // The last case ends before BenchmarkDotNet returns; with an order of its own (a --filter) one may still be ending,
        // or a group of alternating arms may still be live.
        run.Progress.Model.SetActivity("ending the last topologies");
        run.EndLiveGroupAsync().GetAwaiter().GetResult();
        EndDisplay(run, [summary]);
        shutdown.Completed = true;
        run.Results.Comparisons = ArmComparer.Of(run.Results, options.Builds.Select(b => b.Name).ToList(), options.Traces, options.ThresholdPercent, run.Plan.Seed,
            options.InstructionsThresholdPercent);
        return PrintTables(run, summary.Reports.Count(r => !r.Success) + run.EndsFailed, summary.BenchmarksCases.Length,
            summary.HasCriticalValidationErrors || summary.Reports.Length == 0);
    }

    /// <summary>The comparison tables after BenchmarkDotNet's; non-zero when a case failed or BenchmarkDotNet refused the run.</summary>
    private static int PrintTables(RunContext run, int failed, int declared, bool critical)
    {
        foreach (var tables in RunOutputs.ConsoleTables)
        {
            var text = new StringWriter();
            tables.Print(run.Results, text);
            Console.Out.Write(text.ToString());
            run.Progress.Log?.Write(text.ToString());
        }
        if (critical || failed > 0)
        {
            // With a live display the log was never above: it is in the run folder.
            var log = run.Progress.IsLive && run.Progress.Log?.Path is { } path ? $"the log ({path})" : "the log above";
            return Fail(run, $"{failed} of {declared} benchmark case(s) failed; see {log} and {run.ResultsDirectory}");
        }
        return 0;
    }

    /// <summary>
    /// BenchmarkDotNet is done: a live display ends, and BenchmarkDotNet's summary table, which only its log had while
    /// the display showed, is printed under its last frame (plain lines had it already).
    /// </summary>
    private static void EndDisplay(RunContext run, IReadOnlyList<Summary> summaries)
    {
        run.Progress.Model.SetActivity("writing the run's results");
        run.Progress.StopDisplay();
        if (!run.Progress.IsLive)
        {
            return;
        }
        var console = ConsoleLogger.Default;
        // A budgeted run can make dozens of rounds: their tables would bury the verdicts printed next, so only the last
        // round's is printed and console.log has them all.
        if (summaries.Count > 0)
        {
            console.WriteLine();
            console.WriteLineHeader(summaries.Count == 1 ? "// * Summary *" : $"// * Summary of round {summaries.Count}, the last (every round's is in console.log) *");
            BenchmarkDotNet.Exporters.MarkdownExporter.Console.ExportToLog(summaries[^1], console);
            var earlier = summaries.Count > 1 ? $" (the earlier rounds' beside it)" : "";
            console.WriteLineInfo($"// BenchmarkDotNet's log: {summaries[^1].LogFilePath}{earlier}");
            console.WriteLineInfo($"// the whole console, its log with the harness's lines: {run.Progress.Log?.Path}");
        }
    }

    /// <summary>The console's progress for a run: a live display in a terminal a person watches, plain lines elsewhere (<see cref="ProgressModeChoice"/>).</summary>
    private static RunProgress CreateProgress(HarnessOptions options, RunLog log) =>
        ProgressModeChoice.ForConsole(options.Plain) == ProgressMode.Live
            ? new RunProgress(new SpectreProgressRenderer(Spectre.Console.AnsiConsole.Console, Console.Out), log)
            : new RunProgress(new PlainProgressRenderer(Console.Out), log);

    /// <summary>
    /// --max-time: rounds of BenchmarkDotNet over the same cases, the first with --topologies pairs of every case and
    /// each next with one more pair of the cases whose primary verdicts (each build's mean time and payments/s against
    /// the baseline) are still open and whose turn it is by time spent (<see cref="BudgetedVerdicts.NextCells"/>), until
    /// every primary verdict is decided on its confidence sequence or no open case's next pair ends within the budget.
    /// </summary>
    private static int RunBudgeted(RunContext run, BenchmarkOutput output, RunShutdown shutdown, TimeSpan budget)
    {
        var options = run.Options;
        var builds = options.Builds.Select(b => b.Name).ToList();
        // The budget counts from the run's start (image checks and the chain's seeding included); the reports written
        // after the last round are not in it.
        double Elapsed() => (DateTimeOffset.UtcNow - run.Started).TotalSeconds;
        RunComparisons Compare() => ArmComparer.Of(run.Results, builds, options.Traces, options.ThresholdPercent, run.Plan.Seed,
            options.InstructionsThresholdPercent, sequential: true);
        var rounds = new List<BudgetRound>();
        var summaries = new List<Summary>();
        var firstDecided = new Dictionary<string, int>();
        var (failed, declared, critical) = (0, 0, false);
        RunComparisons? comparisons = null;
        IReadOnlyList<CellSpend> spent = [];
        string stopped;
        // The cases (a cell: a Concurrency, and a scenario's own parameters) the next round measures, each at its next
        // topology index: every one in the first round (null), then open ones by their share of the time. A decided
        // cell gets no more pairs (its confidence sequence stays valid wherever it stops).
        IReadOnlyDictionary<string, int>? next = null;
        // Each cell's last topology index so far (its pairs are 1…that).
        var lastTopology = new Dictionary<string, int>(StringComparer.Ordinal);
        using (BenchmarkHost.Host(run))
        {
            while (true)
            {
                run.TopologyRange = next is null ? (1, options.Topologies) : (next.Values.Min(), next.Values.Max());
                var roundStarted = Elapsed();
                var spentBefore = spent.Sum(c => c.Seconds);
                run.Progress.Info(next is null
                    ? $"budgeted run (--max-time {budget.TotalMinutes:0.#} min): round 1, topologies 1–{options.Topologies} of every case"
                    : $"round {rounds.Count + 1}: {string.Join("; ", next.OrderBy(n => n.Key, StringComparer.Ordinal).Select(n => $"topology {n.Value} of {n.Key}"))} ({Elapsed() / 60:0.#} of {budget.TotalMinutes:0.#} min spent)");
                var iterations = run.Sweep("Concurrency").ToDictionary(c => c, run.MeasuredFor);
                // The round's last group of alternating arms ends behind the next round's setup (its idle windows and
                // teardowns); its figures are taken without the idle rate, which only CPU per payment needs.
                run.RoundsMayFollow = true;
                var summary = BenchmarkRunner.Run(run.Scenario.BenchmarkType,
                    BenchConfig.Create(options, run.Kinds, run.ResultsDirectory, run.Results, run.Plan, output, run.IterationsByConcurrency,
                        run.Alternating ? run.Arms : 1, next, run.Progress.Model),
                    options.BenchmarkDotNetArguments.ToArray());
                summaries.Add(summary);
                run.Progress.Model.SetActivity($"round {rounds.Count + 1} done: judging the verdicts");
                if (run.LiveGroup is { } unfinished)
                {
                    // Its last case failed before its cleanup: its arms end now.
                    unfinished.EndAllAsync(wait: true).GetAwaiter().GetResult();
                }
                foreach (var (cell, topology) in next ?? new Dictionary<string, int>())
                {
                    lastTopology[cell] = topology;
                }
                failed += summary.Reports.Count(r => !r.Success);
                declared += summary.BenchmarksCases.Length;
                critical |= summary.HasCriticalValidationErrors || summary.Reports.Length == 0;
                comparisons = Compare();
                var allCells = comparisons.Comparisons.Select(c => c.Cell).Distinct().Order(StringComparer.Ordinal).ToList();
                foreach (var cell in allCells)
                {
                    // The first round's: 1…--topologies.
                    lastTopology.TryAdd(cell, options.Topologies);
                }
                spent = BudgetedVerdicts.Spend(run.Results.Cases, allCells, DateTimeOffset.UtcNow);
                foreach (var decided in comparisons.Comparisons.Where(c => BudgetedVerdicts.IsPrimary(c) && c.Verdict != Verdict.Unknown))
                {
                    firstDecided.TryAdd(BudgetedVerdicts.Key(decided), decided.Interval.BaselineTopologies);
                }
                var open = BudgetedVerdicts.Open(comparisons);
                rounds.Add(new BudgetRound(rounds.Count + 1, spent.Select(c => c.Pairs).DefaultIfEmpty(0).Max(), Elapsed(), open.Count, iterations)
                {
                    Cells = next?.Keys.Order(StringComparer.Ordinal).ToList() ?? allCells,
                    Spent = spent,
                });
                // What a round costs besides its topologies (BenchmarkDotNet's own work, the comparisons): the next round's too.
                var overhead = Math.Max(0, Elapsed() - roundStarted - (spent.Sum(c => c.Seconds) - spentBefore));
                if (failed + run.EndsFailed > 0 || critical)
                {
                    stopped = "a case failed";
                    break;
                }
                if (run.Cancellation.IsCancellationRequested)
                {
                    stopped = "interrupted";
                    break;
                }
                if (open.Count == 0)
                {
                    stopped = BudgetedVerdicts.AllDecided;
                    break;
                }
                var openCells = open.Select(c => c.Cell).ToHashSet(StringComparer.Ordinal);
                var openSpend = spent.Where(c => openCells.Contains(c.Cell) && c.Pairs > 0).ToList();
                var chosen = BudgetedVerdicts.NextCells(openSpend, Elapsed(), budget.TotalSeconds, overhead);
                if (chosen.Count == 0)
                {
                    var cheapest = openSpend.Select(c => c.SecondsPerPair).DefaultIfEmpty(0).Min();
                    stopped = $"the budget: another pair of an open case (about {cheapest / 60:0.#} min) would end after {budget.TotalMinutes:0.#} min";
                    break;
                }
                run.Progress.Info($"after round {rounds.Count} ({string.Join("; ", spent.Select(c => $"{c.Cell}: {c.Pairs} pairs, {c.Seconds / 60:0.#} min"))}): " +
                    $"{open.Count} verdict(s) open ({string.Join("; ", open.Select(c => $"{c.Cell} {c.Metric} {c.Candidate} {c.Interval.Ratio:0.000}"))})");
                next = chosen.ToDictionary(cell => cell, cell => lastTopology[cell] + 1, StringComparer.Ordinal);
                if (!options.IterationsGiven)
                {
                    // The next round's iterations per Concurrency from this run's own variance components (IterationPlan).
                    var before = run.IterationsByConcurrency;
                    run.IterationsByConcurrency = IterationPlan.Next(comparisons.Comparisons, before, options.Iterations);
                    var changed = run.IterationsByConcurrency.Where(i => (before.TryGetValue(i.Key, out var had) ? had : options.Iterations) != i.Value).ToList();
                    if (changed.Count > 0)
                    {
                        run.Progress.Info($"next rounds measure {string.Join(", ", changed.OrderBy(c => c.Key).Select(c => $"{c.Value} iterations per topology at Concurrency={c.Key}"))} " +
                            "(the most precision per minute for this run's variance; --iterations fixes it)");
                    }
                }
            }
        }
        // The last round's group ends now; the comparisons again, with CPU per payment (the primary verdicts read the same times).
        run.RoundsMayFollow = false;
        run.Progress.Model.SetActivity("ending the last topologies");
        run.EndLiveGroupAsync().GetAwaiter().GetResult();
        EndDisplay(run, summaries);
        if (comparisons is not null)
        {
            comparisons = Compare();
            spent = BudgetedVerdicts.Spend(run.Results.Cases, spent.Select(c => c.Cell).ToList(), DateTimeOffset.UtcNow);
            if (rounds.Count > 0)
            {
                rounds[^1] = rounds[^1] with { Spent = spent };
            }
        }
        shutdown.Completed = true;
        var pace = spent.ToDictionary(c => c.Cell, c => c.SecondsPerPair, StringComparer.Ordinal);
        run.Results.Comparisons = comparisons! with
        {
            Budget = new BudgetReport(budget.TotalSeconds, rounds, stopped,
                BudgetedVerdicts.Summarise(comparisons, firstDecided, cell => pace.GetValueOrDefault(cell))),
        };
        return PrintTables(run, failed + run.EndsFailed, declared, critical);
    }

    /// <summary>One case driven continuously (--soak); non-zero when a budget was broken. Its report is written by the shutdown.</summary>
    private static async Task<int> RunSoakAsync(RunContext run, RunShutdown shutdown)
    {
        var soak = shutdown.Soak = new Soak.SoakRun(run);
        bool held;
        using (BenchmarkHost.Host(run))
        {
            held = await soak.RunAsync();
            await soak.EndAsync();
        }
        // Its verdict prints under the display's last frame, not into it.
        run.Progress.StopDisplay();
        return held ? 0 : Fail(run, $"a soak budget was broken (see {Path.Combine(run.ResultsDirectory, Soak.SoakReportMarkdown.FileName)})");
    }

    /// <summary>The run's error on standard error, as <see cref="HarnessExit.Fail"/> says it, and in its console.log, which keeps the whole console.</summary>
    private static int Fail(RunContext run, string message)
    {
        run.Progress.Log?.WriteLine($"lnbench: error: {message}");
        return HarnessExit.Fail(HarnessExit.Failure, message);
    }

    /// <summary>Containers and node folders (with RPC credentials) left by earlier runs whose harness is gone.</summary>
    private static async Task SweepLeftoversAsync(DockerEngine engine, HarnessOptions options, RunProgress progress)
    {
        var stale = await new ResourceSweeper(engine).RemoveStaleRunsAsync();
        if (stale.Count > 0)
        {
            progress.Info($"removed containers left by {stale.Count} earlier run(s) whose harness is gone: {string.Join(", ", stale)}");
        }
        var folders = NodeFolderSweeper.RemoveStale(options.WorkRoot);
        if (folders.Count > 0)
        {
            progress.Info($"removed {folders.Count} node folder(s) with RPC credentials that earlier runs whose harness is gone left in {Path.GetFullPath(options.WorkRoot)}: {string.Join(", ", folders)}");
        }
    }

    /// <summary>perf's version when the run profiles; the reason it does not when --profile-if-available found no means to.</summary>
    private static async Task<(string? PerfVersion, string? Skipped)> CheckProfilingAsync(HarnessOptions options, RunProgress progress)
    {
        if (options.Profile is not { } settings)
        {
            return (null, null);
        }
        string? version, problem;
        if (options.Swarm)
        {
            (version, _, problem) = await Profiling.PerfSupport.CheckForImageAsync(settings);
        }
        else
        {
            (version, problem) = await Profiling.PerfSupport.CheckAsync(settings);
        }
        if (problem is null)
        {
            progress.Info($"profiling with {version}: {settings.Describe()}, {(options.Soak is null ? "every other measured iteration" : "in windows along the soak")}");
            return (version, null);
        }
        if (settings.Required)
        {
            throw new Profiling.ProfilingUnavailableException(problem);
        }
        progress.Info($"running without profiles: {problem}");
        return (null, problem);
    }

    /// <summary>Every image present (pulled if needed) with the programs the harness starts; records ids, digests and versions.</summary>
    private static async Task<IReadOnlyList<ImageRecord>> CheckImagesAsync(DockerEngine engine, HarnessOptions options, NodeKindCatalog kinds, RunProgress progress, string runId)
    {
        var provisioner = new ImageProvisioner(engine, progress, RunLabels.For(runId));
        var option = options.BuildList.Count > 0 ? "--build" : "--cln-image";
        // Bad input refused before any image is looked at: a kind that cannot be counted or run on a swarm, options the harness owns.
        foreach (var build in options.Builds)
        {
            foreach (var (image, kind) in build.Images)
            {
                var nodeKind = kinds.Get(kind);
                if (options.Instructions && nodeKind.Instructions is null)
                {
                    throw new UsageException($"--instructions: build {build.Name} ({image}) is {kind}, whose nodes cannot run under Valgrind; compare it without --instructions");
                }
                if (options.Swarm && !nodeKind.RunsOnSwarm)
                {
                    throw new UsageException($"--swarm: build {build.Name} ({image}) is {kind}, whose nodes do not run on a swarm yet; run it on one host (drop --swarm)");
                }
                if (options.Workloads.Select(w => (Workload: w, Why: nodeKind.RefuseWorkload(w))).FirstOrDefault(r => r.Why is not null) is { Why: { } notWorkload } workload)
                {
                    throw new UsageException($"--workload {workload.Workload}: build {build.Name} ({image}) is {kind}: {notWorkload}; drop it or the build");
                }
                if (build.Database == Topology.Databases.Postgres && !nodeKind.KeepsDatabaseOnPostgres)
                {
                    throw new UsageException($"--db {build.Name}:postgres: build {build.Name} ({image}) is {kind}, whose nodes are not put on PostgreSQL here yet; keep it on sqlite3");
                }
                if (nodeKind.Graph is null && options.GraphPath is not null)
                {
                    throw new UsageException($"--graph: build {build.Name} ({image}) is {kind}, whose nodes cannot be given a graph yet; give it to a Core Lightning build");
                }
                if (nodeKind.HistoryOf(options.HistoryOf) is null && options.GivesHistory)
                {
                    throw new UsageException($"--history: build {build.Name} ({image}) is {kind}, whose nodes cannot be given a history of {options.HistoryOf} yet; give it to a Core Lightning build");
                }
                if (build.NodeOptions.Select(o => (Option: o, Why: nodeKind.RefuseOption(o))).FirstOrDefault(r => r.Why is not null) is { Why: { } why } refused)
                {
                    throw new UsageException($"--node-option {build.Name}:{refused.Option}: {why}; drop it");
                }
            }
        }
        var wanted = options.Builds.SelectMany(b => b.Images).Distinct()
            .Select(i => (Image: i.Image, Option: option, Programs: kinds.Get(i.Kind).VersionProbes))
            .Append((options.BitcoindImage, "--bitcoind-image", new Dictionary<string, string> { ["bitcoind"] = "-version" }))
            .Concat(options.UsesPostgres ? [(options.PostgresImage, "--postgres-image", new Dictionary<string, string> { ["postgres"] = "--version" })] : []);
        var records = new List<ImageRecord>();
        foreach (var (image, imageOption, programs) in wanted)
        {
            var (details, versions) = await provisioner.EnsureAsync(image, imageOption, programs, options.Pull);
            var notes = new List<string>();
            progress.Info($"{image}: {string.Join("; ", versions.Select(v => $"{v.Key} {v.Value}"))}");
            // What the image's node kind says of it for each build that runs it: a release too old or an option its node
            // does not know stops the run now; what it will run without is said once.
            foreach (var build in options.Builds.Where(b => b.Images.Any(i => i.Image == image)))
            {
                var kind = kinds.Get(build.Images.First(i => i.Image == image).Kind);
                var check = await kind.CheckImageAsync(versions, build.NodeOptions,
                    async (command, ct) =>
                    {
                        // All of what it prints: a program's option list runs to hundreds of lines (lightningd's: 367).
                        var (exitCode, output) = await engine.RunToCompletionAsync(image, [command[0]], command.Skip(1).ToList(), RunLabels.For(runId), TimeSpan.FromSeconds(60), ct,
                            outputLines: 100_000);
                        return ((int)exitCode, output);
                    });
                if (check.Refusal is { } refusal)
                {
                    throw new UsageException($"build {build.Name} ({image}): {refusal}");
                }
                if (options.Workloads.Contains(Workloads.Routes.RoutesKind.WorkloadName) && kind.Graph?.RoutesRefusal(versions) is { } noRoutes)
                {
                    throw new UsageException($"--workload routes: build {build.Name} ({image}): {noRoutes}");
                }
                if (options.GivesHistory && kind.HistoryOf(options.HistoryOf)?.Refusal(versions) is { } noHistory)
                {
                    throw new UsageException($"--history: build {build.Name} ({image}): {noHistory}");
                }
                foreach (var note in check.Notes.Distinct())
                {
                    progress.Info($"build {build.Name} ({image}): {note}");
                    notes.Add(note);
                }
            }
            var kindOfImage = options.Builds.SelectMany(b => b.Images).Where(i => i.Image == image).Select(i => i.Kind).FirstOrDefault();
            records.Add(new ImageRecord(image, details.Id, details.RepoDigests, versions) { Kind = kindOfImage, Notes = notes.Distinct().ToList() });
        }
        await CheckBitcoindOptionsAsync(engine, options, kinds, runId);
        return records;
    }

    /// <summary>What the run's node kinds need of bitcoind (LND: ZMQ), checked in its image's -help before any topology: one line if missing.</summary>
    private static async Task CheckBitcoindOptionsAsync(DockerEngine engine, HarnessOptions options, NodeKindCatalog kinds, string runId)
    {
        var needs = options.Builds.SelectMany(b => b.Images).Select(i => kinds.Get(i.Kind)).Distinct()
            .SelectMany(k => k.BitcoindOptions.Select(o => (Kind: k.Name, Option: o.Split('=', 2)[0]))).ToList();
        if (needs.Count == 0)
        {
            return;
        }
        var (_, help) = await engine.RunToCompletionAsync(options.BitcoindImage, ["bitcoind"], ["-help"], RunLabels.For(runId), TimeSpan.FromSeconds(60),
            outputLines: 100_000);
        if (needs.FirstOrDefault(n => !help.Contains(n.Option, StringComparison.Ordinal)) is { Option: not null } missing)
        {
            throw new UsageException($"--bitcoind-image {options.BitcoindImage}: its bitcoind has no {missing.Option} (built without it), which {missing.Kind} nodes need: " +
                "choose a bitcoind image built with ZMQ (bitcoin/bitcoin's images have it)");
        }
    }

}
