using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Run;
using Lightning.Bench.Swarm;

namespace Lightning.Bench;

internal static class Program
{
    public static int Main(string[] args) => Run(args, NodeKindCatalog.Default);

    /// <summary>Commands that are no benchmark run: the swarm's agents and sweeps, the overlay's gate, a program run to files.</summary>
    private static readonly IReadOnlyDictionary<string, Func<string[], int>> Commands = new Dictionary<
        string,
        Func<string[], int>
    >
    {
        [Swarm.Relay.AgentOptionCatalog.Command] = Swarm.AgentCommand.Run,
        [Swarm.WorkVolumeSweep.Command] = Swarm.WorkVolumeSweep.Run,
        [Swarm.WorkVolumeSweep.RemoveWhenExitedCommand] = Swarm.WorkVolumeSweep.RemoveWhenExited,
        [Swarm.Relay.OverlayGate.Command] = Swarm.Relay.OverlayGate.Run,
        [Processes.ExecToFiles.Command] = Processes.ExecToFiles.Run,
        [Swarm.AgentCommand.AgentsCommand] = Swarm.AgentCommand.RunAgents,
    };

    /// <summary>The harness with a given set of node kinds and fragments (tests add a stand-in kind).</summary>
    public static int Run(string[] args, NodeKindCatalog kinds, string? fragmentsDirectory = null)
    {
        if (args.Length > 0 && Commands.TryGetValue(args[0], out var command))
        {
            return command(args[1..]);
        }
        HarnessOptions options;
        ComposeFragments fragments;
        ReplayPlan? replayed;
        try
        {
            options = OptionParser.Parse(args);
            if (RunOneOff(options, kinds, fragmentsDirectory) is { } done)
            {
                return done;
            }
            (options, fragments, replayed, var exit) = Prepare(options, kinds, fragmentsDirectory);
            if (exit is { } stopped)
            {
                return stopped;
            }
        }
        catch (UsageException e)
        {
            return HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        catch (Exception e) when (e is FileNotFoundException or InvalidDataException or System.Text.Json.JsonException)
        {
            return HarnessExit.Fail(HarnessExit.Usage, e.Message);
        }
        if (SideBySideRun.TryRunAsync(options, args).GetAwaiter().GetResult() is { } sideBySide)
        {
            return sideBySide;
        }
        return HarnessRun.RunAsync(options, fragments, kinds, replayed).GetAwaiter().GetResult();
    }

    /// <summary>What the options ask that is no run (help, the scenario list, a site, a page, spans, a comparison of two runs): its exit code; null for a run.</summary>
    private static int? RunOneOff(HarnessOptions options, NodeKindCatalog kinds, string? fragmentsDirectory)
    {
        if (options.Help)
        {
            Console.WriteLine(Usage.Help());
            return 0;
        }
        if (options.CleanSnapshots)
        {
            var directory = options.SnapshotDirectory ?? HarnessOptions.DefaultSnapshotDirectory;
            var (files, bytes) = Setup.HistorySnapshotStore.Clean(directory);
            Console.WriteLine(
                FormattableString.Invariant($"snapshots: removed {files} from {directory} ({bytes / 1e6:0.#} MB)")
            );
            return 0;
        }
        if (options.List)
        {
            Console.WriteLine(Usage.ScenarioList());
            return 0;
        }
        if (options.ListBuilt || options.PruneBuilt)
        {
            return Sources.BuiltImagesCommand.Run(options, Console.Out);
        }
        if (options.Bisect is not null || options.BisectResume is not null)
        {
            return Bisection.BisectCommand.Run(options, step => Run(step, kinds, fragmentsDirectory));
        }
        if (options.Publish.Count > 0)
        {
            if (options.Publish.Count < 2)
            {
                return HarnessExit.Fail(
                    HarnessExit.Usage,
                    "--publish needs a site folder and at least one run: --publish SITE results/RUN.zip…"
                );
            }
            Console.WriteLine(
                $"the site: {Reports.HistorySite.Publish(options.Publish[0], options.Publish.Skip(1).ToList(), options.PublishOrder, options.IncludeBusy)}"
            );
            return 0;
        }
        if (options.Report is { } folder)
        {
            if (!File.Exists(Path.Combine(folder, "manifest.json")))
            {
                return HarnessExit.Fail(
                    HarnessExit.Usage,
                    $"--report {folder}: no manifest.json there; give a run's folder (results/RUN-SCENARIO), unzipped"
                );
            }
            Console.WriteLine($"the run's page: {Reports.ReportHtml.Write(folder)}");
            return 0;
        }
        return options.Spans is { } run ? WriteSpans(run, options.SpansOut, kinds)
            : options.Compare.Count == 2 ? Compare(options.Compare[0], options.Compare[1], options)
            : null;
    }

    /// <summary>
    /// A run's options made final (a replay's own; builds given as git:REF made into images), checked before any
    /// container, and the compose fragments of the kinds it may use; or the exit code of a build from source that failed.
    /// </summary>
    private static (HarnessOptions Options, ComposeFragments Fragments, ReplayPlan? Replayed, int? Exit) Prepare(
        HarnessOptions options,
        NodeKindCatalog kinds,
        string? fragmentsDirectory
    )
    {
        ReplayPlan? replayed = null;
        if (options.Replay is not null)
        {
            replayed = ReplayPlan.Load(options.Replay, options);
            RunProgress.Console.Info($"replaying run {replayed.Manifest.RunId}: {replayed.Manifest.CommandLine}");
            options = replayed.Options;
        }
        Preflight.Check(options);
        // Builds given as git:REF made into images first: the run sees images.
        options = Sources.SourceBuilds.Prepare(options, out var sourcesExit);
        if (sourcesExit is { } exit)
        {
            return (options, null!, replayed, exit);
        }
        // A build whose kind is still to be recognised from its image may be any kind.
        var used = options.BuildList.Any(b => !b.KindKnown || b.NodesToRecognise.Count > 0)
            ? kinds.All
            : options.Builds.SelectMany(b => b.Images).Select(i => kinds.Get(i.Kind)).Distinct().ToList();
        var fragments = ComposeFragments.Load(
            fragmentsDirectory,
            options.AllowPrivilegedFragments,
            used.Select(k => k.FragmentFile).Concat(options.UsesPostgres ? [ComposeFragments.PostgresFile] : [])
        );
        if (!options.WithCompose)
        {
            EngineComposeRunner.CheckFragments(fragments);
        }
        return (options, fragments, replayed, null);
    }

    private static int WriteSpans(string run, string? output, NodeKindCatalog kinds)
    {
        try
        {
            Console.WriteLine($"the run's spans and their views: {SpanViews.Write(run, output, kinds)}");
            return 0;
        }
        catch (Exception e) when (e is (IOException and not FileNotFoundException) or UnauthorizedAccessException)
        {
            return HarnessExit.Fail(HarnessExit.Failure, e.Message);
        }
    }

    private static int Compare(string a, string b, HarnessOptions options)
    {
        var summaryA = RunSummary.Read(RunArchive.ReadText(a, RunSummary.FileName));
        var summaryB = RunSummary.Read(RunArchive.ReadText(b, RunSummary.FileName));
        if (
            RunComparison.Refusal(
                summaryA,
                Manifest.Read(RunArchive.ReadText(a, Manifest.FileName)),
                summaryB,
                Manifest.Read(RunArchive.ReadText(b, Manifest.FileName))
            ) is
            { } refusal
        )
        {
            return HarnessExit.Fail(HarnessExit.Usage, refusal);
        }
        var text = RunComparison.Render(
            a,
            summaryA,
            b,
            summaryB,
            options.ThresholdPercent,
            options.Seed ?? 1,
            options.InstructionsThresholdPercent
        );
        Console.WriteLine(text);
        var profiles = ProfileComparison.Write(a, b, options.ResultsRoot, options.ThresholdPercent);
        if (profiles.Length > 0)
        {
            Console.WriteLine(profiles);
        }
        // The comparison's page, beside its profiles (results/compare-A-vs-B/).
        var folder = Path.GetFullPath(
            Path.Combine(options.ResultsRoot, $"compare-{summaryA.RunId}-vs-{summaryB.RunId}")
        );
        Directory.CreateDirectory(folder);
        var page = Path.Combine(folder, Reports.ReportHtml.FileName);
        AtomicFile.WriteAllText(
            page,
            Reports.ReportHtml.Page(
                $"Lightning.Bench: run {summaryB.RunId} against run {summaryA.RunId}",
                Reports.MarkdownHtml.Convert(text + "\n" + profiles)
            )
        );
        Console.WriteLine($"the comparison's page: {page}");
        return 0;
    }
}
