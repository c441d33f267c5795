using BenchmarkDotNet.Loggers;
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
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Run;

/// <summary>
/// One run, top to bottom: what it settles before any container (<see cref="RunPreparation"/>), the engine and
/// compose, leftovers of earlier runs swept, images and capabilities checked (<see cref="ImageChecks"/>), the datagram
/// queue raised, the chain seeded, then what it measures (<see cref="MeasuredRun"/>), and the one shutdown
/// (<see cref="RunShutdown"/>) whoever gets there first: the normal end, a failure or a signal (<see cref="RunInterrupt"/>).
/// </summary>
internal static class HarnessRun
{
    /// <param name="replayed">With --replay: the run replayed, whose conditions this one must measure under.</param>
    public static async Task<int> RunAsync(
        HarnessOptions options,
        ComposeFragments fragments,
        NodeKindCatalog kinds,
        ReplayPlan? replayed = null
    )
    {
        // Before anything keeps the console: a terminal that closes mid-run (SIGHUP) fails every write after it.
        ClosableConsoleWriter.Install();
        // Disposed last: the shutdown's lines (results, the run's page) are the log's last.
        using var log = new RunLog();
        var progress = RunPreparation.CreateProgress(options, log);
        // With a live display BenchmarkDotNet's log goes to the run folder only: it would scroll the display away.
        var output = new BenchmarkOutput(new RunLogLogger(log, progress.IsLive ? null : ConsoleLogger.Default));
        var shutdown = new RunShutdown(progress);
        using var interrupt = new RunInterrupt(shutdown, output, progress);
        var started = new Started(log, progress, output, shutdown);
        var exitCode = HarnessExit.Failure;
        try
        {
            exitCode = await StartAndMeasureAsync(options, fragments, kinds, replayed, started);
        }
        catch (UsageException e)
        {
            // Bad input found once the images could be read (an option a build's node does not know, a release too old).
            exitCode = Failed(started, HarnessExit.Usage, e.Message);
        }
        catch (IOException e) when (shutdown.Run?.Cancellation.IsCancellationRequested == true)
        {
            // Stopped by a signal: a terminal that closed under the run (SIGHUP) fails the writes that bypass the
            // console's writer (BenchmarkDotNet sets the terminal's title); the stop itself is what happened.
            log.WriteLine($"// the run stopped; the console's last write failed ({e.Message})");
            exitCode = HarnessExit.Interrupted;
        }
        catch (Exception e) when (IsRunFailure(e))
        {
            exitCode = Failed(started, HarnessExit.Failure, e.Message);
        }
        finally
        {
            // The shutdown's lines and errors print plain, under the display's last frame.
            progress.StopDisplay();
            await shutdown.RunAsync(partial: exitCode != 0);
            await interrupt.EndAsync();
            started.Engine?.Dispose();
        }
        return VerdictsReport.GateExit(
            exitCode == 0 && shutdown.OutputsFailed > 0 ? HarnessExit.Failure : exitCode,
            options.FailOn,
            shutdown.Run?.Results.Comparisons,
            progress
        );
    }

    /// <summary>What a run has made so far, for its end whichever way it comes.</summary>
    private sealed record Started(RunLog Log, RunProgress Progress, BenchmarkOutput Output, RunShutdown Shutdown)
    {
        public DockerEngine? Engine { get; set; }
    }

    /// <summary>The failures a run reports in one line (a stack trace would say nothing more to its user).</summary>
    private static bool IsRunFailure(Exception e) =>
        e
            is DockerUnavailableException
                or DockerApiException
                or ImageUnavailableException
                or NodeDiedException
                or WaitTimeoutException
                or TimeoutException
                or ToolNotFoundException
                or Profiling.ProfilingUnavailableException
                or Instructions.InstructionsUnavailableException
                or IOException
                or UnauthorizedAccessException
                or InvalidDataException
                or Swarm.SwarmUnavailableException
                or System.Net.Sockets.SocketException
                or Swarm.Relay.RelayRefusedException;

    private static int Failed(Started started, int exitCode, string message)
    {
        started.Progress.StopDisplay();
        started.Log.WriteLine($"lnbench: error: {message}");
        return HarnessExit.Fail(exitCode, message);
    }

    /// <summary>Everything before the first container settled, then the engine, the checks, the chain and what the run measures.</summary>
    private static async Task<int> StartAndMeasureAsync(
        HarnessOptions options,
        ComposeFragments fragments,
        NodeKindCatalog kinds,
        ReplayPlan? replayed,
        Started started
    )
    {
        var progress = started.Progress;
        // Before any container: a run that cannot profile says so now, not after its first case; the graph is read and checked.
        var (perfVersion, profileSkipped) = await RunPreparation.CheckProfilingAsync(options, progress);
        var valgrind = options.Instructions ? await Instructions.HostValgrind.FindAsync() : null;
        (var graph, options) = RunPreparation.LoadGraph(options, progress);
        if (RunPreparation.ReplayRefusal(replayed, options, valgrind is not null, perfVersion) is { } refusal)
        {
            progress.StopDisplay();
            return HarnessExit.Fail(HarnessExit.Usage, refusal);
        }
        var (engine, dockerVersion, compose) = await StartEngineAsync(options, started);
        // A --build that did not name its node kind has it recognised from its image, before anything else reads the builds.
        options = await KindRecognition.RecogniseAsync(
            options,
            kinds,
            new ImageProvisioner(engine, progress, RunLabels.For("recognise")),
            progress
        );
        var limit = new DatagramQueueLimit();
        limit.RestoreLeftover(progress);
        var run = started.Shutdown.Run = new RunContext(
            options,
            ScenarioCatalog.Get(options.Scenario),
            engine,
            compose,
            fragments,
            kinds,
            progress,
            perfVersion is null
                ? null
                : runId => Profiling.RunProfiling.Create(options.Profile!, perfVersion, options.WorkRoot, runId),
            valgrind
        )
        {
            ProfileSkipped = profileSkipped,
            Graph = graph,
        };
        return await CheckAndMeasureAsync(run, started, limit, dockerVersion, compose.Version);
    }

    /// <summary>The engine the run uses and how it runs compose, said in one line; what earlier runs left on it swept.</summary>
    private static async Task<(DockerEngine Engine, string Version, IComposeRunner Compose)> StartEngineAsync(
        HarnessOptions options,
        Started started
    )
    {
        var progress = started.Progress;
        var engine = started.Engine = new DockerEngine(DockerEndpoint.Resolve());
        var dockerVersion = await engine.GetVersionAsync();
        IComposeRunner compose = options.WithCompose
            ? await ComposeCli.DetectAsync(engine.Endpoint)
            : new EngineComposeRunner(engine);
        progress.Info(
            $"Docker engine {dockerVersion} (API {engine.ApiVersion}) at {engine.Host} ({engine.Endpoint.Source}), {compose.Version}"
        );
        await RunPreparation.SweepLeftoversAsync(engine, options, progress);
        return (engine, dockerVersion, compose);
    }

    /// <summary>The images and capabilities checked, the platform started, the results folder opened and the chain seeded; then what the run measures.</summary>
    private static async Task<int> CheckAndMeasureAsync(
        RunContext run,
        Started started,
        DatagramQueueLimit limit,
        string dockerVersion,
        string composeVersion
    )
    {
        var (options, engine, progress) = (run.Options, run.Engine, run.Progress);
        var images = await new ImageChecks(
            engine,
            options,
            run.Kinds,
            progress,
            run.RunId,
            run.WorkloadNames
        ).RunAsync();
        await RunStart.StartPlatformAsync(run, images);
        started.Shutdown.Record(
            MachineRecord.Collect(dockerVersion, engine.ApiVersion?.ToString() ?? "", composeVersion),
            images
        );
        RunStart.OpenResults(run, started.Log);
        started.Shutdown.QueueLimit = options.Traces.Contains(TraceModes.On) ? limit.Ensure(progress) : null;
        await run.SeedChainAsync();
        progress.Model.SetActivity(
            options.Soak is null ? "BenchmarkDotNet is finding the cases" : "soak: one case driven continuously"
        );
        return await MeasuredRun.RunAsync(run, started.Output, started.Shutdown);
    }
}
