using Lightning.Bench.Cases;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Network;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Run;

/// <summary>A run's start once its images are checked: the platform its nodes run on, and its results folder and display.</summary>
internal static class RunStart
{
    /// <summary>Valgrind checked against every node image (--instructions), and the swarm's agents started (--swarm).</summary>
    public static async Task StartPlatformAsync(RunContext run, IReadOnlyList<ImageRecord> images)
    {
        var (options, kinds, progress) = (run.Options, run.Kinds, run.Progress);
        if (run.Valgrind is { } valgrind)
        {
            await Instructions.InstructionsPreflight.CheckAsync(
                run.Engine,
                valgrind,
                options.Builds.SelectMany(b => b.Images).Select(i => (i.Image, kinds.Get(i.Kind))),
                RunLabels.For(run.RunId),
                HostUser.ContainerUser,
                progress
            );
            progress.Info(
                $"counting instructions with {valgrind.Version} (callgrind, brought from the host): every Lightning node runs about ten times slower, "
                    + "so this run's times are not compared"
            );
        }
        if (options.Swarm)
        {
            run.Platform = await Swarm.SwarmPlatform.StartAsync(
                run.Engine,
                kinds,
                run.RunId,
                images.Select(i => i.Name).Distinct().ToList(),
                options.WorkRoot,
                progress,
                run.Cancellation,
                perf: run.Profiling is null ? null : Profiling.PerfSupport.Locate(options.Profile!.PerfPath),
                onlyHost: options.SwarmHost,
                placements: options.Placements.Values
            );
        }
    }

    /// <summary>The run's folder and its console.log opened, and the live display started.</summary>
    public static void OpenResults(RunContext run, RunLog log)
    {
        var progress = run.Progress;
        progress.Info($"run {run.RunId}: results in {run.ResultsDirectory}");
        Directory.CreateDirectory(run.ResultsDirectory);
        log.Open(Path.Combine(run.ResultsDirectory, RunLog.FileName));
        progress.Model.Describe(run.Scenario.Name, run.RunId, run.Started, run.Options.MaxTime);
        progress.Model.SetActivity(
            run.Options.Soak is null ? "seeding the run's chain" : "seeding the run's chain for the soak"
        );
        progress.StartDisplay();
    }
}
