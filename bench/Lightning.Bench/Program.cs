using System.Runtime.InteropServices;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Lightning.Bench.Cases;
using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Run;
using Lightning.Bench.Swarm;

namespace Lightning.Bench;

internal static class Program
{
    public static int Main(string[] args) => Run(args, NodeKindCatalog.Default);

    /// <summary>The harness with a given set of node kinds and fragments (tests add a stand-in kind).</summary>
    public static int Run(string[] args, NodeKindCatalog kinds, string? fragmentsDirectory = null)
    {
        if (args.Length > 0 && args[0] == Swarm.Relay.AgentOptionCatalog.Command)
        {
            return Swarm.AgentCommand.Run(args[1..]);
        }
        if (args.Length > 0 && args[0] == Swarm.WorkVolumeSweep.Command)
        {
            return Swarm.WorkVolumeSweep.Run(args[1..]);
        }
        if (args.Length > 0 && args[0] == Swarm.WorkVolumeSweep.RemoveWhenExitedCommand)
        {
            return Swarm.WorkVolumeSweep.RemoveWhenExited(args[1..]);
        }
        if (args.Length > 0 && args[0] == Swarm.Relay.OverlayGate.Command)
        {
            return Swarm.Relay.OverlayGate.Run(args[1..]);
        }
        if (args.Length > 0 && args[0] == Processes.ExecToFiles.Command)
        {
            return Processes.ExecToFiles.Run(args[1..]);
        }
        if (args.Length > 0 && args[0] == Swarm.AgentCommand.AgentsCommand)
        {
            return Swarm.AgentCommand.RunAgents(args[1..]);
        }
        HarnessOptions options;
        ComposeFragments fragments;
        ReplayPlan? replayed = null;
        try
        {
            options = OptionParser.Parse(args);
            if (options.Help)
            {
                Console.WriteLine(Usage.Help());
                return 0;
            }
            if (options.CleanSnapshots)
            {
                var directory = options.SnapshotDirectory ?? HarnessOptions.DefaultSnapshotDirectory;
                var (files, bytes) = Setup.HistorySnapshotStore.Clean(directory);
                Console.WriteLine(FormattableString.Invariant($"snapshots: removed {files} from {directory} ({bytes / 1e6:0.#} MB)"));
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
                    return HarnessExit.Fail(HarnessExit.Usage, "--publish needs a site folder and at least one run: --publish SITE results/RUN.zip…");
                }
                Console.WriteLine($"the site: {Reports.HistorySite.Publish(options.Publish[0], options.Publish.Skip(1).ToList(), options.PublishOrder)}");
                return 0;
            }
            if (options.Report is { } folder)
            {
                if (!File.Exists(Path.Combine(folder, "manifest.json")))
                {
                    return HarnessExit.Fail(HarnessExit.Usage, $"--report {folder}: no manifest.json there; give a run's folder (results/RUN-SCENARIO), unzipped");
                }
                Console.WriteLine($"the run's page: {Reports.ReportHtml.Write(folder)}");
                return 0;
            }
            if (options.Spans is { } run)
            {
                return WriteSpans(run, options.SpansOut, kinds);
            }
            if (options.Compare.Count == 2)
            {
                return Compare(options.Compare[0], options.Compare[1], options);
            }
            if (options.Replay is not null)
            {
                var plan = replayed = ReplayPlan.Load(options.Replay, options);
                RunProgress.Console.Info($"replaying run {plan.Manifest.RunId}: {plan.Manifest.CommandLine}");
                options = plan.Options;
            }
            Preflight.Check(options);
            // Builds given as git:REF made into images first: the run sees images.
            options = Sources.SourceBuilds.Prepare(options, out var sourcesExit);
            if (sourcesExit is { } exit)
            {
                return exit;
            }
            // A build whose kind is still to be recognised from its image may be any kind.
            var used = options.BuildList.Any(b => !b.KindKnown || b.NodesToRecognise.Count > 0)
                ? kinds.All
                : options.Builds.SelectMany(b => b.Images).Select(i => kinds.Get(i.Kind)).Distinct().ToList();
            fragments = ComposeFragments.Load(fragmentsDirectory, options.AllowPrivilegedFragments,
                used.Select(k => k.FragmentFile).Concat(options.UsesPostgres ? [ComposeFragments.PostgresFile] : []));
            if (!options.WithCompose)
            {
                EngineComposeRunner.CheckFragments(fragments);
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
        if (RunComparison.Refusal(summaryA, Manifest.Read(RunArchive.ReadText(a, Manifest.FileName)), summaryB, Manifest.Read(RunArchive.ReadText(b, Manifest.FileName))) is { } refusal)
        {
            return HarnessExit.Fail(HarnessExit.Usage, refusal);
        }
        var text = RunComparison.Render(a, summaryA, b, summaryB, options.ThresholdPercent, options.Seed ?? 1, options.InstructionsThresholdPercent);
        Console.WriteLine(text);
        var profiles = ProfileComparison.Write(a, b, options.ResultsRoot, options.ThresholdPercent);
        if (profiles.Length > 0)
        {
            Console.WriteLine(profiles);
        }
        // The comparison's page, beside its profiles (results/compare-A-vs-B/).
        var folder = Path.GetFullPath(Path.Combine(options.ResultsRoot, $"compare-{summaryA.RunId}-vs-{summaryB.RunId}"));
        Directory.CreateDirectory(folder);
        var page = Path.Combine(folder, Reports.ReportHtml.FileName);
        File.WriteAllText(page, Reports.ReportHtml.Page($"Lightning.Bench: run {summaryB.RunId} against run {summaryA.RunId}",
            Reports.MarkdownHtml.Convert(text + "\n" + profiles)));
        Console.WriteLine($"the comparison's page: {page}");
        return 0;
    }
}
