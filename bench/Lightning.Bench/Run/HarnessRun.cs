using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using System.Runtime.InteropServices;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Statistics;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Run;

/// <summary>
/// One run, top to bottom: the engine and compose, leftovers of earlier runs swept, images checked, the datagram
/// queue raised, BenchmarkDotNet run over the scenario's cases (each a <see cref="CaseLifecycle"/>), and the one
/// shutdown (topologies torn down, results written) whoever gets there first: the normal end, a failure or a signal.
/// </summary>
public static class HarnessRun
{
    public static async Task<int> RunAsync(HarnessOptions options, ComposeFragments fragments, NodeKindCatalog kinds)
    {
        var progress = RunProgress.Console;
        var scenario = ScenarioCatalog.Get(options.Scenario);
        var output = new BenchmarkOutput(BenchmarkDotNet.Loggers.ConsoleLogger.Default);
        RunContext? run = null;
        RunReport? report = null;
        DatagramQueueLimit? queueLimit = null;
        Summary? summary = null;
        Task? shutdown = null;
        var shutdownLock = new object();
        var interrupted = 0;
        var exitCode = Program.ExitFailure;
        Soak.SoakRun? soak = null;

        // The one teardown of a run, whoever gets there first: the normal end, a failure, or a signal.
        Task ShutdownAsync(bool partial, bool byInterrupt)
        {
            lock (shutdownLock)
            {
                return shutdown ??= Task.Run(async () =>
                {
                    if (byInterrupt)
                    {
                        report?.WriteUnreportedPayments();
                    }
                    if (soak is not null)
                    {
                        // Ctrl+C ends a soak normally: everything measured so far is reported before the teardown.
                        try
                        {
                            await soak.FinishAsync();
                        }
                        catch (Exception e) when (e is IOException or InvalidOperationException)
                        {
                            progress.Info($"soak report failed: {e.Message}");
                        }
                    }
                    try
                    {
                        if (run is not null)
                        {
                            await run.DisposeAsync();
                        }
                    }
                    finally
                    {
                        queueLimit?.Restore();
                        if (report is not null && run is not null)
                        {
                            await report.WriteAsync(completed: !byInterrupt && summary is not null, partial, plots: !byInterrupt || soak is not null);
                            progress.Info($"results: {run.ResultsDirectory}");
                        }
                    }
                });
            }
        }

        void Interrupt(PosixSignalContext context)
        {
            context.Cancel = true;
            if (Interlocked.Exchange(ref interrupted, 1) == 1)
            {
                return;
            }
            progress.Info($"{context.Signal}: stopping, tearing the topology down");
            // BenchmarkDotNet's thread is inside a case and would run the next ones: it is silenced and left behind,
            // and this thread tears down (it never disposes what that thread still holds, such as the run's cancellation).
            output.Mute();
            run?.Cancel();
            try
            {
                ShutdownAsync(partial: true, byInterrupt: true).GetAwaiter().GetResult();
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"lnbench: error: teardown after {context.Signal} failed: {e.Message}");
            }
            Environment.Exit(Program.ExitInterrupted);
        }

        using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, Interrupt);
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Interrupt);
        DockerEngine? engine = null;
        try
        {
            // Before any container: a run that cannot profile says so now, not after its first case.
            var (perfVersion, profileSkipped) = await CheckProfilingAsync(options, progress);
            engine = new DockerEngine(DockerEndpoint.Resolve());
            var dockerVersion = await engine.GetVersionAsync();
            IComposeRunner compose = options.WithCompose ? await ComposeCli.DetectAsync(engine.Endpoint) : new EngineComposeRunner(engine);
            progress.Info($"Docker engine {dockerVersion} (API {engine.ApiVersion}) at {engine.Host} ({engine.Endpoint.Source}), {compose.Version}");

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
            var limit = new DatagramQueueLimit();
            limit.RestoreLeftover(progress);

            run = new RunContext(options, scenario, engine, compose, fragments, kinds, progress,
                perfVersion is null ? null : runId => Profiling.RunProfiling.Create(options.Profile!, perfVersion, options.WorkRoot, runId))
            {
                ProfileSkipped = profileSkipped,
            };
            var images = await CheckImagesAsync(engine, options, kinds, progress, run.RunId);
            report = new RunReport(run, MachineRecord.Collect(dockerVersion, engine.ApiVersion?.ToString() ?? "", compose.Version), images);
            progress.Info($"run {run.RunId}: results in {run.ResultsDirectory}");
            Directory.CreateDirectory(run.ResultsDirectory);

            queueLimit = options.Traces.Contains(TraceModes.On) ? limit.Ensure(progress) : null;
            await run.SeedChainAsync();
            if (options.Soak is not null)
            {
                soak = new Soak.SoakRun(run);
                bool held;
                using (BenchmarkHost.Host(run))
                {
                    held = await soak.RunAsync();
                    await soak.EndAsync();
                }
                exitCode = held ? 0 : Program.ExitFailure;
                return held ? 0 : Program.Fail(Program.ExitFailure, $"a soak budget was broken (see {Path.Combine(run.ResultsDirectory, Soak.SoakReportMarkdown.FileName)})");
            }
            var config = BenchConfig.Create(options, run.ResultsDirectory, run.Results, run.Plan, output);
            using (BenchmarkHost.Host(run))
            {
                summary = BenchmarkRunner.Run(scenario.BenchmarkType, config, options.BenchmarkDotNetArguments.ToArray());
            }
            run.Results.Comparisons = RunComparisons.Of(run.Results, options.Builds.Select(b => b.Name).ToList(), options.Traces, options.ThresholdPercent, run.Plan.Seed);
            Console.WriteLine();
            Console.WriteLine(ComparisonReport.Markdown(run.Results.Comparisons));
            Console.WriteLine(NodeCostReport.Markdown(run.Results.Cases));
            Console.WriteLine(SetupReport.Markdown(run.Results.Cases));

            var failedCases = summary.Reports.Count(r => !r.Success);
            if (summary.HasCriticalValidationErrors || failedCases > 0 || summary.Reports.Length == 0)
            {
                return Program.Fail(Program.ExitFailure, $"{failedCases} of {summary.BenchmarksCases.Length} benchmark case(s) failed; see the log above and {run.ResultsDirectory}");
            }
            exitCode = 0;
            return exitCode;
        }
        catch (Exception e) when (e is DockerUnavailableException or DockerApiException or ImageUnavailableException or NodeDiedException
            or WaitTimeoutException or TimeoutException or ToolNotFoundException or Profiling.ProfilingUnavailableException or IOException or UnauthorizedAccessException or InvalidDataException)
        {
            return Program.Fail(Program.ExitFailure, e.Message);
        }
        finally
        {
            await ShutdownAsync(partial: exitCode != 0, byInterrupt: false);
            engine?.Dispose();
        }
    }

    /// <summary>perf's version when the run profiles; the reason it does not when --profile-if-available found no means to.</summary>
    private static async Task<(string? PerfVersion, string? Skipped)> CheckProfilingAsync(HarnessOptions options, RunProgress progress)
    {
        if (options.Profile is not { } settings)
        {
            return (null, null);
        }
        var (version, problem) = await Profiling.PerfSupport.CheckAsync(settings);
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
        var wanted = options.Builds.SelectMany(b => b.Images).Distinct()
            .Select(i => (Image: i.Image, Option: option, Programs: kinds.Get(i.Kind).VersionProbes))
            .Append((options.BitcoindImage, "--bitcoind-image", new Dictionary<string, string> { ["bitcoind"] = "-version" }));
        var records = new List<ImageRecord>();
        foreach (var (image, imageOption, programs) in wanted)
        {
            var versions = await provisioner.EnsureAsync(image, imageOption, programs, options.Pull);
            var details = await engine.InspectImageAsync(image);
            records.Add(new ImageRecord(image, details?.Id ?? "", details?.RepoDigests ?? [], versions));
            progress.Info($"{image}: {string.Join("; ", versions.Select(v => $"{v.Key} {v.Value}"))}");
        }
        return records;
    }

}
