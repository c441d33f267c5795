using System.Runtime.InteropServices;
using BenchmarkDotNet.Running;
using Lightning.Bench.Cli;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Harness;
using Lightning.Bench.Nodes;
using Lightning.Bench.Reporting;
using Lightning.Bench.Tracing;
using Lightning.Bench.Running;
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
        try
        {
            options = OptionParser.Parse(args);
        }
        catch (UsageException e)
        {
            return Fail(ExitUsage, e.Message);
        }
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
        return RunAsync(options).GetAwaiter().GetResult();
    }

    private static async Task<int> RunAsync(HarnessOptions options)
    {
        var progress = RunProgress.Console;
        var scenario = ScenarioCatalog.Find(options.Scenario)!;
        using var engine = new DockerEngine();
        HarnessSession? session = null;
        DatagramQueueLimit? queueLimit = null;
        var interrupted = 0;

        void Interrupt(PosixSignalContext context)
        {
            context.Cancel = true;
            if (Interlocked.Exchange(ref interrupted, 1) == 1)
            {
                return;
            }
            progress.Info($"{context.Signal}: stopping, tearing the topology down");
            session?.Cancel();
            session?.DisposeAsync().AsTask().GetAwaiter().GetResult();
            queueLimit?.Restore();
            Environment.Exit(ExitInterrupted);
        }

        using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, Interrupt);
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Interrupt);
        try
        {
            var dockerVersion = await engine.GetVersionAsync();
            var compose = await ComposeCli.DetectAsync();
            var fragments = ComposeFragments.Load();
            progress.Info($"Docker engine {dockerVersion} at {engine.Host}, {compose.Version}");

            var stale = await new ResourceSweeper(engine).RemoveStaleRunsAsync();
            if (stale.Count > 0)
            {
                progress.Info($"removed containers left by {stale.Count} earlier run(s) whose harness is gone: {string.Join(", ", stale)}");
            }

            session = new HarnessSession(options, scenario, engine, compose, fragments, progress);
            var images = new ImageProvisioner(engine, progress, RunLabels.For(session.RunId));
            var option = options.BuildList.Count > 0 ? "--build" : "--cln-image";
            foreach (var image in options.Builds.SelectMany(b => b.Images).Distinct())
            {
                var cln = await images.EnsureAsync(image, option,
                    new Dictionary<string, string> { ["lightningd"] = "--version", ["bitcoin-cli"] = "-version" }, options.Pull);
                progress.Info($"{image}: lightningd {cln["lightningd"]}");
            }
            var bitcoind = await images.EnsureAsync(options.BitcoindImage, "--bitcoind-image",
                new Dictionary<string, string> { ["bitcoind"] = "-version" }, options.Pull);
            progress.Info($"{options.BitcoindImage}: {bitcoind["bitcoind"]}");
            progress.Info($"run {session.RunId}: results in {session.ResultsDirectory}");
            Directory.CreateDirectory(session.ResultsDirectory);

            queueLimit = options.Traces.Contains(true) ? DatagramQueueLimit.Ensure(progress) : null;
            HarnessSession.Activate(session);
            var config = BenchConfig.Create(options, session.ResultsDirectory, () => HarnessSession.Current.Payments);
            var summary = BenchmarkRunner.Run(scenario.BenchmarkType, config, options.BenchmarkDotNetArguments.ToArray());

            var failedCases = summary.Reports.Count(r => !r.Success);
            if (summary.HasCriticalValidationErrors || failedCases > 0 || summary.Reports.Length == 0)
            {
                return Fail(ExitFailure, $"{failedCases} of {summary.BenchmarksCases.Length} benchmark case(s) failed; see the log above and {session.ResultsDirectory}");
            }
            await FinishRunAsync(session, progress);
            progress.Info($"results: {session.ResultsDirectory}");
            return 0;
        }
        catch (Exception e) when (e is DockerUnavailableException or ImageUnavailableException or NodeDiedException or WaitTimeoutException or IOException or UnauthorizedAccessException or InvalidDataException)
        {
            return Fail(ExitFailure, e.Message);
        }
        finally
        {
            if (session is not null)
            {
                await session.DisposeAsync();
            }
            HarnessSession.Activate(null);
            queueLimit?.Restore();
        }
    }

    /// <summary>Run-level outputs made from every case's files: one Zipkin file and the plots.</summary>
    private static async Task FinishRunAsync(HarnessSession session, RunProgress progress)
    {
        var cases = Path.Combine(session.ResultsDirectory, "cases");
        if (Directory.Exists(cases))
        {
            var parts = Directory.GetDirectories(cases).Order().Select(d => Path.Combine(d, ZipkinExport.FileName)).ToList();
            if (parts.Any(File.Exists))
            {
                ZipkinExport.Merge(Path.Combine(session.ResultsDirectory, ZipkinExport.FileName), parts);
            }
        }
        var plots = await new PlotRenderer(progress).RenderAsync(session.ResultsDirectory);
        foreach (var plot in plots)
        {
            progress.Info($"plot: {plot}");
        }
    }

    private static int Fail(int exitCode, string message)
    {
        Console.Error.WriteLine($"lnbench: error: {message}");
        return exitCode;
    }
}
