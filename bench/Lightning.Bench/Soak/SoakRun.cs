using System.Diagnostics;
using Lightning.Bench.Cases;
using Lightning.Bench.Options;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Soak;

/// <summary>
/// A soak: one case's payments driven continuously on one topology (as many in flight as one invocation of the case
/// starts), sampled every --sample-interval into soak.csv and soak-nodes.csv as it goes; at the end (time or payment
/// count reached, Ctrl+C, a node's death) the report (<see cref="SoakReport"/>). It composes the parts: the payments
/// (<see cref="SoakPaymentLoop"/>, with the <see cref="SoakRebalancer"/> that keeps channels from draining), their
/// counts (<see cref="SoakTally"/>: memory stays bounded, payments are counted, never kept), the windows
/// (<see cref="SoakSampler"/> into <see cref="SoakWindowsCsv"/> and <see cref="SoakNodesCsv"/>) and, with --profile,
/// the profile windows (<see cref="SoakProfiler"/>).
/// </summary>
internal sealed class SoakRun
{
    private readonly RunContext run;
    private readonly object gate = new();
    private readonly CancellationTokenSource stop;
    private readonly Stopwatch clock = new();
    private readonly SoakTally tally = new();
    private Task<bool>? finishing;
    private CaseLifecycle? lifecycle;
    private SoakSampler? sampler;
    private SoakPaymentLoop? payments;
    private SoakProfiler? profiler;

    public SoakRun(RunContext run)
    {
        this.run = run;
        stop = CancellationTokenSource.CreateLinkedTokenSource(run.Cancellation);
    }

    public SoakLimit Limit => run.Options.Soak ?? throw new InvalidOperationException("not a soak run");

    /// <summary>Runs the soak to its end and writes the report; true when every budget held.</summary>
    public async Task<bool> RunAsync()
    {
        var definition = ScenarioBenchmark.SoakCase(run.Scenario.BenchmarkType);
        run.Progress.Info(
            $"soak: {definition.Key}, {definition.PaymentsPerInvocation} payment(s) in flight, for {Limit}; sampling every {run.Options.SampleInterval.TotalSeconds:0} s (Ctrl+C ends it early and keeps everything)"
        );
        lifecycle = await CaseLifecycle.StartAsync(run, definition);
        var network = lifecycle.Network;
        var topology = definition.Topology;
        var readers = await SoakSampler.ReadersAsync(run, topology, network);
        Directory.CreateDirectory(run.ResultsDirectory);
        sampler = new SoakSampler(
            run,
            tally,
            readers,
            lifecycle.IdleCpu,
            new SoakWindowsCsv(run.ResultsDirectory),
            new SoakNodesCsv(run.ResultsDirectory),
            clock,
            Limit
        );
        clock.Start();
        sampler.Sample();

        // The option parser lets a soak run the pay workload only.
        var driver = (Workloads.Payments.PaymentDriver)lifecycle.Workload;
        var rebalancer = new SoakRebalancer(run, driver, topology, tally, stop.Token);
        payments = new SoakPaymentLoop(
            run,
            network,
            driver,
            rebalancer,
            tally,
            () => profiler is { Sampling: true },
            Limit,
            clock,
            stop
        );
        var paying = payments.RunAsync(topology.Flows, definition.PaymentsPerInvocation);
        var sampling = Task.Run(() => sampler.RunAsync(stop.Token));
        var profiling = Task.CompletedTask;
        if (run.Profiling is { } perf)
        {
            profiler = new SoakProfiler(
                run,
                perf,
                network,
                topology.Nodes.Select(n => n.Name).ToList(),
                () => tally.Succeeded,
                clock,
                run.Options.ProfileEvery ?? SoakProfiler.DefaultEvery(Limit),
                Limit.Duration
            );
            run.Progress.Info(
                $"soak: profiling every node for {SoakProfiler.WindowLength.TotalSeconds:0} s every {profiler.Every.TotalMinutes:0.#} min"
            );
            profiling = Task.Run(() => profiler.RunAsync(stop.Token));
        }
        try
        {
            await paying;
        }
        finally
        {
            stop.Cancel();
            await sampling;
            await profiling;
        }
        return await FinishAsync();
    }

    /// <summary>Ends the soak and writes the report once, whoever asks first (the normal end or Ctrl+C); true when every budget held.</summary>
    public Task<bool> FinishAsync()
    {
        lock (gate)
        {
            return finishing ??= Task.Run(async () =>
            {
                stop.Cancel();
                var stoppedBy =
                    payments?.StoppedBy
                    ?? (
                        run.Cancellation.IsCancellationRequested
                            ? $"interrupted by {run.StoppedBy ?? "a signal"}"
                            : null
                    );
                if (sampler is null || lifecycle is null)
                {
                    return true;
                }
                await sampler.CloseAsync();
                var findings = SoakReport.Write(
                    run.ResultsDirectory,
                    new SoakFacts(
                        run.Scenario.Name,
                        Limit.ToString(),
                        clock.Elapsed,
                        tally.Succeeded,
                        tally.Failed,
                        tally.Latency,
                        lifecycle.IdleCpu,
                        run.Options.Budgets,
                        run.Options.ThresholdPercent,
                        stoppedBy,
                        run.Options.SampleInterval
                    )
                );
                run.Progress.Info(
                    $"soak: {tally.Succeeded} payments ({tally.Failed} failed) in {clock.Elapsed.TotalMinutes:0.0} min; report {Path.Combine(run.ResultsDirectory, SoakReportMarkdown.FileName)}"
                );
                foreach (var line in SoakReport.Lines(findings))
                {
                    run.Progress.Info($"soak: {line}");
                }
                WriteProfiles();
                return findings.BudgetsHeld;
            });
        }
    }

    /// <summary>The profile windows' report (profiles/profiles.md), when the soak was profiled.</summary>
    private void WriteProfiles()
    {
        if (profiler is null || run.Profiling is not { } profiling)
        {
            return;
        }
        var windows = profiler.Windows;
        run.Results.SoakProfiles = windows;
        if (windows.Count == 0)
        {
            run.Progress.Info(
                $"soak: no profile window closed{(profiler.Problem is null ? $" (the first opens after {profiler.Every.TotalMinutes:0.#} min)" : $": {profiler.Problem}")}"
            );
            return;
        }
        var (sampled, unsampled) = tally.ProfiledLatency();
        var lines = SoakProfileReport.Write(
            run.ResultsDirectory,
            windows,
            profiling.Settings,
            profiling.PerfVersion,
            run.Options.ThresholdPercent,
            profiler.Every,
            sampled,
            unsampled
        );
        run.Progress.Info(
            $"soak: {windows.Count} profile windows; {Path.Combine(run.ResultsDirectory, Profiling.ProfileFiles.Folder, Reports.ProfileReport.FileName)}"
        );
        foreach (var line in lines)
        {
            run.Progress.Info($"soak: profile: {line}");
        }
    }

    /// <summary>Tears the soak's topology down (after <see cref="FinishAsync"/>).</summary>
    public async Task EndAsync()
    {
        if (lifecycle is not null)
        {
            await lifecycle.EndAsync();
        }
    }
}
