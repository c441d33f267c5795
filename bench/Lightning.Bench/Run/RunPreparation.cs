using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Run;

/// <summary>What a run settles before its first container: whether it can profile, the graph it loads, and what earlier runs left.</summary>
internal static class RunPreparation
{
    /// <summary>The console's progress for a run: a live display in a terminal a person watches, plain lines elsewhere (<see cref="ProgressModeChoice"/>).</summary>
    public static RunProgress CreateProgress(HarnessOptions options, RunLog log) =>
        ProgressModeChoice.ForConsole(options.Plain) == ProgressMode.Live
            ? new RunProgress(new SpectreProgressRenderer(Spectre.Console.AnsiConsole.Console, Console.Out), log)
            : new RunProgress(new PlainProgressRenderer(Console.Out), log);

    /// <summary>perf's version when the run profiles; the reason it does not when --profile-if-available found no means to.</summary>
    public static async Task<(string? PerfVersion, string? Skipped)> CheckProfilingAsync(
        HarnessOptions options,
        RunProgress progress
    )
    {
        if (options.Profile is not { } settings)
        {
            return (null, null);
        }
        string? version,
            problem;
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
            progress.Info(
                $"profiling with {version}: {settings.Describe()}, {(options.Soak is null ? "every other measured iteration" : "in windows along the soak")}"
            );
            return (version, null);
        }
        if (settings.Required)
        {
            throw new Profiling.ProfilingUnavailableException(problem);
        }
        progress.Info($"running without profiles: {problem}");
        return (null, problem);
    }

    /// <summary>The graph read and checked (its subgraphs and queries take the run's seed, chosen now if none was given); null without --graph.</summary>
    public static (Graph.RunGraph? Graph, HarnessOptions Options) LoadGraph(
        HarnessOptions options,
        RunProgress progress
    )
    {
        if (options.GraphPath is not { } graphPath)
        {
            return (null, options);
        }
        options = options with { Seed = options.Seed ?? Random.Shared.Next() };
        Graph.RunGraph graph;
        using (progress.Begin($"reading the graph {graphPath}"))
        {
            graph = Graph.RunGraph.Load(
                graphPath,
                options.GraphNode ?? Graph.RunGraph.DefaultMappedIndex,
                options.Seed.Value
            );
            graph.Ids.DeriveAll(Enumerable.Range(0, graph.Snapshot.NodeCount));
            graph.Form = options.GraphStore;
        }
        progress.Info(
            $"graph {Path.GetFileName(graph.Path)}: {graph.Snapshot.NodeCount:N0} nodes, {graph.Snapshot.Channels.Count:N0} channels; "
                + $"node {graph.MappedIndex} ({graph.Name(graph.MappedIndex)}) is {Scenarios.MainnetGraph.Mapped}; seed {graph.Seed}"
                + (graph.Map is null ? "; no node map beside it (destinations are named by index)" : "")
                + $"; store written in {Graph.GossipStoreForms.Describe(graph.Form)}"
        );
        return (graph, options);
    }

    /// <summary>Why a --replay cannot measure under the replayed run's conditions, or null.</summary>
    public static string? ReplayRefusal(
        ReplayPlan? replayed,
        HarnessOptions options,
        bool underValgrind,
        string? perfVersion
    ) =>
        replayed is null
            ? null
            : ReplayPlan.Refusal(
                replayed.Manifest,
                replayed.Summary,
                new MeasurementConditions
                {
                    Platform = options.Swarm
                        ? Swarm.SwarmPlatform.PlatformName
                        : Network.SingleHostPlatform.PlatformName,
                    UnderValgrind = underValgrind,
                    Sampling = perfVersion is null
                        ? null
                        : MeasurementConditions.SamplingOf(options.Profile!.FrequencyHz, options.Profile.CallGraph),
                    BackToBack = options.BackToBack,
                }
            );

    /// <summary>Containers and node folders (with RPC credentials) left by earlier runs whose harness is gone.</summary>
    public static async Task SweepLeftoversAsync(DockerEngine engine, HarnessOptions options, RunProgress progress)
    {
        var stale = await new ResourceSweeper(engine).RemoveStaleRunsAsync();
        if (stale.Count > 0)
        {
            progress.Info(
                $"removed containers left by {stale.Count} earlier run(s) whose harness is gone: {string.Join(", ", stale)}"
            );
        }
        var unfinished = AtomicFile.RemoveLeftovers(options.ResultsRoot, TimeSpan.FromMinutes(10));
        if (unfinished.Count > 0)
        {
            progress.Info(
                $"removed {unfinished.Count} unfinished file(s) that earlier runs whose harness is gone left in {Path.GetFullPath(options.ResultsRoot)}: "
                    + string.Join(", ", unfinished.Select(Path.GetFileName))
            );
        }
        var folders = NodeFolderSweeper.RemoveStale(options.WorkRoot);
        if (folders.Count > 0)
        {
            progress.Info(
                $"removed {folders.Count} node folder(s) with RPC credentials that earlier runs whose harness is gone left in "
                    + $"{Path.GetFullPath(options.WorkRoot)}: {string.Join(", ", folders)}"
            );
        }
    }
}
