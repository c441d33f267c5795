using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using System.Runtime.InteropServices;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Run;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench;

public static class Program
{
    public const int ExitFailure = 1;
    public const int ExitUsage = 2;
    public const int ExitInterrupted = 130;

    public static int Main(string[] args)
    {
        HarnessOptions options;
        ComposeFragments fragments;
        try
        {
            options = OptionParser.Parse(args);
            if (options.Help)
            {
                Console.WriteLine(Usage.Help());
                return 0;
            }
            if (options.List)
            {
                Console.WriteLine(Usage.ScenarioList());
                return 0;
            }
            if (options.Compare.Count == 2)
            {
                return Compare(options.Compare[0], options.Compare[1]);
            }
            if (options.Replay is not null)
            {
                var plan = ReplayPlan.Load(options.Replay, options);
                RunProgress.Console.Info($"replaying run {plan.Manifest.RunId}: {plan.Manifest.CommandLine}");
                options = plan.Options;
            }
            Preflight.Check(options);
            fragments = ComposeFragments.Load(allowPrivileged: options.AllowPrivilegedFragments);
        }
        catch (UsageException e)
        {
            return Fail(ExitUsage, e.Message);
        }
        catch (Exception e) when (e is FileNotFoundException or InvalidDataException or System.Text.Json.JsonException)
        {
            return Fail(ExitUsage, e.Message);
        }
        return RunAsync(options, fragments).GetAwaiter().GetResult();
    }

    private static int Compare(string a, string b)
    {
        var summaryA = RunSummary.Read(ArtifactZip.ReadText(a, RunSummary.FileName));
        var summaryB = RunSummary.Read(ArtifactZip.ReadText(b, RunSummary.FileName));
        Console.WriteLine(RunComparison.Render(a, summaryA, b, summaryB));
        return 0;
    }

    private static async Task<int> RunAsync(HarnessOptions options, ComposeFragments fragments)
    {
        var progress = RunProgress.Console;
        var scenario = ScenarioCatalog.Get(options.Scenario);
        var output = new BenchmarkOutput(BenchmarkDotNet.Loggers.ConsoleLogger.Default);
        HarnessSession? session = null;
        RunArtifacts? artifacts = null;
        DatagramQueueLimit? queueLimit = null;
        Summary? summary = null;
        Task? shutdown = null;
        var shutdownLock = new object();
        var interrupted = 0;
        var exitCode = ExitFailure;

        // The one teardown of a run, whoever gets there first: the normal end, a failure, or a signal.
        Task ShutdownAsync(bool partial, bool byInterrupt)
        {
            lock (shutdownLock)
            {
                return shutdown ??= Task.Run(async () =>
                {
                    if (byInterrupt)
                    {
                        session?.WriteUnreportedPayments();
                    }
                    try
                    {
                        if (session is not null)
                        {
                            await session.DisposeAsync();
                        }
                    }
                    finally
                    {
                        queueLimit?.Restore();
                        if (artifacts is not null && session is not null)
                        {
                            await artifacts.WriteAsync(byInterrupt ? null : summary, partial, plots: !byInterrupt);
                            progress.Info($"results: {session.ResultsDirectory}");
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
            session?.Cancel();
            try
            {
                ShutdownAsync(partial: true, byInterrupt: true).GetAwaiter().GetResult();
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"lnbench: error: teardown after {context.Signal} failed: {e.Message}");
            }
            Environment.Exit(ExitInterrupted);
        }

        using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, Interrupt);
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Interrupt);
        DockerEngine? engine = null;
        try
        {
            engine = new DockerEngine(DockerEndpoint.Resolve());
            var dockerVersion = await engine.GetVersionAsync();
            var compose = await ComposeCli.DetectAsync(engine.Endpoint);
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

            session = new HarnessSession(options, scenario, engine, compose, fragments, progress);
            var images = await CheckImagesAsync(engine, options, progress, session.RunId);
            artifacts = new RunArtifacts(session, MachineRecord.Collect(dockerVersion, engine.ApiVersion?.ToString() ?? "", compose.Version), images);
            progress.Info($"run {session.RunId}: results in {session.ResultsDirectory}");
            Directory.CreateDirectory(session.ResultsDirectory);

            queueLimit = options.Traces.Contains(TraceModes.On) ? limit.Ensure(progress) : null;
            HarnessSession.Activate(session);
            var config = BenchConfig.Create(options, session.ResultsDirectory, () => HarnessSession.Current.Payments, output);
            summary = BenchmarkRunner.Run(scenario.BenchmarkType, config, options.BenchmarkDotNetArguments.ToArray());

            var failedCases = summary.Reports.Count(r => !r.Success);
            if (summary.HasCriticalValidationErrors || failedCases > 0 || summary.Reports.Length == 0)
            {
                return Fail(ExitFailure, $"{failedCases} of {summary.BenchmarksCases.Length} benchmark case(s) failed; see the log above and {session.ResultsDirectory}");
            }
            exitCode = 0;
            return exitCode;
        }
        catch (Exception e) when (e is DockerUnavailableException or DockerApiException or ImageUnavailableException or NodeDiedException
            or WaitTimeoutException or TimeoutException or ToolNotFoundException or IOException or UnauthorizedAccessException or InvalidDataException)
        {
            return Fail(ExitFailure, e.Message);
        }
        finally
        {
            await ShutdownAsync(partial: exitCode != 0, byInterrupt: false);
            HarnessSession.Activate(null);
            engine?.Dispose();
        }
    }

    /// <summary>Every image present (pulled if needed) with the programs the harness starts; records ids, digests and versions.</summary>
    private static async Task<IReadOnlyList<ImageRecord>> CheckImagesAsync(DockerEngine engine, HarnessOptions options, RunProgress progress, string runId)
    {
        var provisioner = new ImageProvisioner(engine, progress, RunLabels.For(runId));
        var option = options.BuildList.Count > 0 ? "--build" : "--cln-image";
        var wanted = options.Builds.SelectMany(b => b.Images).Distinct()
            .Select(image => (Image: image, Option: option, Programs: new Dictionary<string, string> { ["lightningd"] = "--version", ["bitcoin-cli"] = "-version" }))
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

    private static int Fail(int exitCode, string message)
    {
        Console.Error.WriteLine($"lnbench: error: {message}");
        return exitCode;
    }
}
