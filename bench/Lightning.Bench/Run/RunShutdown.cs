using Lightning.Bench.Cases;
using Lightning.Bench.Progress;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Run;

/// <summary>
/// The one shutdown of a run, whoever gets there first: the normal end, a failure or a signal. The run hands it what
/// there is to stop and record as each comes into being; it reports a soak, tears the run down, puts back the datagram
/// queue limit and writes the run's outputs (<see cref="RunOutputs.RunEnd"/>), once.
/// </summary>
internal sealed class RunShutdown(RunProgress progress)
{
    private readonly Lock gate = new();
    private Task? shutdown;
    private (MachineRecord Machine, IReadOnlyList<ImageRecord> Images)? recorded;

    /// <summary>The run, once its context exists.</summary>
    public RunContext? Run { get; set; }

    /// <summary>The raised datagram queue limit to put back, if the run raised it.</summary>
    public DatagramQueueLimit? QueueLimit { get; set; }

    /// <summary>The machine's samples while the run measures, once it measures: stopped before the run's outputs are written.</summary>
    public Network.MachineLoadWatch? MachineLoad { get; set; }

    /// <summary>The soak, if the run is one: a signal ends it like its limit would, reported before the teardown.</summary>
    public Lightning.Bench.Soak.SoakRun? Soak { get; set; }

    /// <summary>BenchmarkDotNet returned: every case ran (the summary and comparisons can be written).</summary>
    public bool Completed { get; set; }

    /// <summary>Run outputs that could not be written (each said in one line); the run then exits non-zero.</summary>
    public int OutputsFailed { get; private set; }

    /// <summary>The machine and the images checked: from now on the run's outputs are written, whatever happens.</summary>
    public void Record(MachineRecord machine, IReadOnlyList<ImageRecord> images) => recorded = (machine, images);

    /// <summary>The shutdown has begun (the normal end's, a failure's or a signal's): a signal now only waits for it.</summary>
    public bool Started
    {
        get
        {
            lock (gate)
            {
                return shutdown is not null;
            }
        }
    }

    /// <param name="partial">The run did not finish as asked: the manifest says so.</param>
    /// <param name="interruptedBy">A signal ("SIGHUP"): cases cut off keep their payments and the figures of their
    /// measured invocations, summary.json says what stopped the run, and only a soak is plotted.</param>
    public Task RunAsync(bool partial, string? interruptedBy = null)
    {
        lock (gate)
        {
            return shutdown ??= Task.Run(() => ShutDownAsync(partial, interruptedBy));
        }
    }

    private async Task ShutDownAsync(bool partial, string? interruptedBy)
    {
        var run = Run;
        var byInterrupt = interruptedBy is not null;
        if (byInterrupt && run is not null && recorded is not null)
        {
            WriteUnreportedPayments(run, interruptedBy!);
        }
        if (Soak is { } soak)
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
            QueueLimit?.Restore();
            if (MachineLoad is { } watch)
            {
                await watch.StopAsync();
            }
            if (recorded is { } record && run is not null)
            {
                OutputsFailed = await RunOutputs.WriteRunEndAsync(OutputsOf(run, record, partial, interruptedBy));
                SayWhereTheyAre(run);
            }
        }
    }

    /// <summary>What the run's end writes from: the run, the machine and images recorded, and how it ended.</summary>
    private RunOutputContext OutputsOf(
        RunContext run,
        (MachineRecord Machine, IReadOnlyList<ImageRecord> Images) record,
        bool partial,
        string? interruptedBy
    ) =>
        new()
        {
            RunId = run.RunId,
            ResultsDirectory = run.ResultsDirectory,
            Scenario = run.Scenario,
            Options = run.Options,
            Results = run.Results,
            Seed = run.Plan.Seed,
            Order = run.Plan.Order,
            Started = run.Started,
            Machine = record.Machine,
            Images = record.Images,
            PaymentCalls = string.Join("; ", run.Kinds.PaymentCallsOf(run.Options.Builds).Select(c => c.Phrase)),
            Profiling = run.Profiling,
            Platform = run.Platform.Name,
            ProfileSkipped = run.ProfileSkipped,
            Valgrind = run.Valgrind,
            Graph = run.Graph,
            History = run.Options.GivesHistory
                ? new HistoryRecord(
                    run.Options.HistoryOf,
                    run.Options.HistorySizes,
                    run.Options.Builds.SelectMany(b => b.Images)
                        .Select(i => run.Kinds.Get(i.Kind).HistoryOf(run.Options.HistoryOf)?.What)
                        .OfType<string>()
                        .Distinct()
                        .ToList()
                )
                {
                    SnapshotDirectory = run.Snapshots?.Directory,
                    Snapshots = run.Snapshots?.Uses.ToList() ?? [],
                }
                : null,
            InstructionProfiles = run.InstructionProfiles,
            MachineLoad = MachineLoad?.Record(),
            MachineLoadSamples = MachineLoad?.Samples ?? [],
            Progress = progress,
            Completed = interruptedBy is null && Completed,
            Partial = partial,
            InterruptedBy = interruptedBy,
            Plots = interruptedBy is null || Soak is not null,
        };

    /// <summary>The run's last lines: a swarm's pace, where the results and the page are.</summary>
    private void SayWhereTheyAre(RunContext run)
    {
        if (
            run.Options.Swarm
            && SwarmRecord.Of(run.Results.Cases, run.Started, DateTimeOffset.UtcNow) is { Topologies: > 0 } swarm
        )
        {
            progress.Info(
                FormattableString.Invariant(
                    $"swarm: {swarm.Hosts.Count} host(s) ({string.Join(", ", swarm.Hosts)}): {swarm.Pairs} topology pairs in {swarm.Minutes:0.#} min, {swarm.PairsPerMinute:0.##} pairs per minute"
                )
            );
        }
        if (MachineLoad?.Record() is { } load)
        {
            progress.Info($"machine: {load.Description}");
            if (load.BusyNote is { } busy)
            {
                progress.Info($"the machine was busy: {busy}");
            }
        }
        progress.Info($"results: {run.ResultsDirectory}");
        if (File.Exists(Path.Combine(run.ResultsDirectory, Reports.ReportHtml.FileName)))
        {
            progress.Info($"the run's page: {Path.Combine(run.ResultsDirectory, Reports.ReportHtml.FileName)}");
        }
    }

    /// <summary>
    /// When the run is stopped mid-case: the cases not yet reported go through the case outputs as they are (their
    /// payments to payments.csv, the last invocations counted as measured; their spans are not read), so a partial run
    /// keeps what it measured; a case cut off gets the figures of its completed measured invocations, as the harness
    /// timed them, and says what stopped it.
    /// </summary>
    private static void WriteUnreportedPayments(RunContext run, string interruptedBy)
    {
        foreach (var results in run.Results.Cases.Where(c => c.Steps is null))
        {
            results.Complete(run.Options.Warmups, run.Options.Iterations);
            if (results.Figures is null && results.InvocationsStarted > 0)
            {
                if (!results.Ended)
                {
                    results.StoppedBy ??= $"interrupted by {interruptedBy}";
                    results.CutBySignal = true;
                }
                // A case that ended but whose idle window the signal cut has its figures without CPU per payment.
                if (results.IdleAfterPaymentsPending)
                {
                    results.FinishProvisionally();
                }
                else
                {
                    results.Finish(null, null, null);
                }
            }
            RunOutputs.WriteCase(new CaseOutputContext(run.RunId, run.ResultsDirectory, results, Spans: null));
        }
    }
}
