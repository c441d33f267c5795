using Lightning.Bench.Instructions;
using Lightning.Bench.Network;
using Lightning.Bench.Payments;
using Lightning.Bench.Profiling;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Setup;

namespace Lightning.Bench.Run;

/// <summary>
/// One benchmark case from start to end, in the order it happens: build the topology, start it, fund the wallets, open
/// the channels, wait for routes, measure the nodes' idle CPU, then pay once per invocation; at the end report the case
/// and tear the topology down.
/// BenchmarkDotNet drives it through <see cref="Scenarios.ScenarioBenchmark"/> (setup, invocations, cleanup).
/// </summary>
internal sealed class CaseLifecycle
{
    private const decimal FundingBtc = 1m;

    /// <summary>Long enough to hold a few of the nodes' periodic chores (bitcoind is polled every second).</summary>
    public static readonly TimeSpan IdleWindow = TimeSpan.FromSeconds(3);
    private readonly RunContext run;
    private readonly CaseDefinition definition;
    private readonly CaseResults results;
    private LightningNetwork? network;
    private PaymentDriver? driver;
    private (TimeSpan Paused, int Collections) gcBefore;
    private ICaseProfiler? profiler;
    private CaseInstructions? instructions;
    private INodeMeter? cpuMeter;

    /// <summary>A timed case waits for its nodes to fall quiet before each invocation (see <see cref="TimedSettle"/>), unless --back-to-back.</summary>
    private readonly bool settleTimed;
    private bool paysNothing;

    private CaseLifecycle(RunContext run, CaseDefinition definition)
    {
        this.run = run;
        this.definition = definition;
        results = run.Results.StartCase(definition.Key, definition.Parameters, definition.PaymentsPerInvocation);
        idleAfterPayments = run.Valgrind is null && run.Profiling is null && run.Options.Soak is null;
        settleTimed = run.Valgrind is null && !run.Options.BackToBack;
        // Alternating arms: an arm's measured invocations are timed by the harness, in its own case and in the others'.
        results.TimedByHarness = run.Alternating;
    }

    /// <summary>The case's key.</summary>
    public string Key => definition.Key;

    /// <summary>With --pairing alternate: the arms live with this one (see <see cref="ArmGroup"/>); null otherwise.</summary>
    public ArmGroup? Group { get; set; }

    /// <summary>Whether the case's topology is still up.</summary>
    public bool Alive => Volatile.Read(ref network) is not null;

    /// <summary>Why the case ended before its iterations did, or null.</summary>
    public string? StoppedBy => results.StoppedBy;

    /// <summary>
    /// A timed case (no Valgrind, perf or soak) measures its nodes' idle CPU after its payments, while the next case's
    /// topology is set up, instead of before them: the window (a third to a half of a topology's time at
    /// Concurrency=1) then costs the run nothing. Idle nodes' timers use the same CPU time whatever else the machine
    /// does; the next case waits for this one's end before its first payment.
    /// </summary>
    private readonly bool idleAfterPayments;

    /// <summary>Builds the case's topology up to the first payment; on failure it is torn down before the exception leaves.</summary>
    /// <param name="awaitEndBehind">Wait for the previous case's end after the setup (false: the caller waits, after setting up more).</param>
    public static async Task<CaseLifecycle> StartAsync(RunContext run, CaseDefinition definition, bool awaitEndBehind = true)
    {
        var lifecycle = new CaseLifecycle(run, definition);
        try
        {
            await lifecycle.SetUpAsync();
            if (awaitEndBehind)
            {
                // The previous case's end (idle window, report, teardown) ran beside this setup; none of it beside a payment.
                await run.EndBehindAsync();
            }
        }
        catch
        {
            await lifecycle.AbortAsync();
            throw;
        }
        return lifecycle;
    }

    /// <summary>Tears down a case that will not pay (its setup or its group's failed); its figures are not waited for.</summary>
    public async Task AbortAsync()
    {
        if (results.IdleAfterPaymentsPending)
        {
            results.IdleMeasured(new Dictionary<string, double>());
        }
        await TearDownAsync();
    }

    private async Task SetUpAsync()
    {
        var ct = run.Cancellation;
        var topology = definition.Topology;
        run.Progress.Info($"case {definition.Key}: building the topology");

        // 1. Start: containers, bitcoind with coins, every node answering and synced.
        network = run.CreateNetwork(topology, definition.Key, definition.TraceMode, Scenarios.CaseArms.ReplicateOf(definition.Parameters));
        var started = DateTimeOffset.UtcNow;
        var clock = new SetupTimes.Clock();
        await network.StartAsync(run.Fragments, clock, ct);
        results.Topology = new CaseRecord(definition.Key, network.Options.ProjectName,
            topology.Nodes.ToDictionary(n => n.Name, n => n.Image),
            network.Nodes.ToDictionary(n => n.Key, n => n.Value.Version),
            started, null)
        {
            NodeKinds = topology.Nodes.ToDictionary(n => n.Name, n => n.Kind),
            Host = network.Options.Swarm?.Host,
            NodeHosts = network.Options.Swarm?.NodeHosts ?? new Dictionary<string, string>(),
        };

        // 2. Fund the channel openers (unless the miner pays for the channels), 3. open the channels, 4. wait until every payer has a route.
        var opener = new ChannelOpener(network, run.Progress);
        if (!opener.FundsFromMiner(topology.Channels))
        {
            await new WalletFunder(network, run.Progress).FundAsync(topology.Funders, FundingBtc, ct);
        }
        clock.Lap("fund");
        await opener.OpenAsync(topology.Channels, ct);
        clock.Lap("channels");
        await opener.WaitRoutesAsync(topology.Flows, run.Options.AmountMsat, ct);
        clock.Lap("routes");
        var setup = clock.Times;
        run.Progress.Info($"case {definition.Key}: topology ready in {setup}");

        // 5. The nodes' idle CPU rate, so CPU per payment counts what payments cost, not time passing (and with
        // --instructions, at the same time, their idle instructions).
        var idleInstructions = CountIdleInstructionsAsync(network, ct);
        var cpu = await network.CreateCpuMeterAsync(ct);
        if (cpu.Problem is null && idleAfterPayments)
        {
            cpuMeter = cpu;
            results.AwaitIdleAfterPayments();
            setup = setup with { IdleWindowSeconds = IdleWindow.TotalSeconds, IdleAfterPayments = true };
        }
        else if (cpu.Problem is null)
        {
            cpuMeter = cpu;
            using var idle = run.Progress.Begin($"measuring the nodes' idle CPU for {IdleWindow.TotalSeconds:0} s");
            results.IdleCpuNanosecondsPerSecond = await cpu.MeasureIdleAsync(IdleWindow, ct);
            setup = setup with { IdleWindowSeconds = IdleWindow.TotalSeconds };
        }
        else
        {
            run.Progress.Info($"case {definition.Key}: no CPU time per payment: {cpu.Problem}");
        }
        if (run.Alternating && !results.IdleAfterPaymentsPending)
        {
            // An alternating arm's figures wait for the group's end, when its last invocation (in another arm's case) is done.
            results.AwaitIdleAfterPayments();
        }
        await idleInstructions;
        results.Topology = results.Topology with { Setup = setup };

        // 6. Ready to pay (with every invoice made ahead, if asked).
        driver = new PaymentDriver(network.Nodes, topology.Flows, run.Options.AmountMsat,
            $"lnbench-{run.RunId}", run.Results, results, network.ThrowIfNodeDiedAsync, cpu.Problem is null ? cpu : null);
        if (run.Options.PregenerateInvoices)
        {
            var count = (run.Options.Warmups + definition.Iterations) * definition.PaymentsPerInvocation;
            using var step = run.Progress.Begin($"creating {count} invoices");
            await driver.PregenerateInvoicesAsync(count, ct);
        }

        // 7. With --profile: a perf recording per node, off until the invocations it samples (a soak profiles in windows of its own).
        if (run.Profiling is { } profiling && run.Options.Soak is null)
        {
            var nodes = topology.Nodes.ToDictionary(n => n.Name, n => network.Containers[n.Name]);
            try
            {
                profiler = network.OnSwarm
                    ? await profiling.StartCaseAsync(network, ct)
                    : await profiling.StartCaseAsync(run.Engine, nodes, CaseFolder.Of(definition.Key), ct);
            }
            catch (Exception e) when (e is IOException or TimeoutException or UnauthorizedAccessException or Processes.ToolNotFoundException)
            {
                results.ProfileProblem = e.Message;
                run.Progress.Info($"case {definition.Key}: no profiles: {e.Message}");
            }
        }
        run.Progress.Info($"case {definition.Key}: topology ready, benchmarking");
    }

    /// <summary>With --instructions: every node's processes counted at rest; a node whose processes do not answer costs the case its counts.</summary>
    private async Task CountIdleInstructionsAsync(LightningNetwork started, CancellationToken ct)
    {
        if (run.Valgrind is null)
        {
            return;
        }
        instructions = CaseInstructions.For(run.Engine, definition.Topology.Nodes.ToDictionary(n => n.Name, n => started.Containers[n.Name]),
            started.Layout.NodeDirectory, HostUser.ContainerUser,
            definition.Topology.Nodes.ToDictionary(n => n.Name, n => run.Kinds.Get(n.Kind).Instructions?.RetryLoops ?? []));
        try
        {
            // Every node at the chain's tip first: a block processed late would count as idle work.
            await started.WaitSyncedAsync(ct);
            using var step = run.Progress.Begin($"counting the nodes' idle instructions for {CaseInstructions.IdleWindow.TotalSeconds:0} s");
            await instructions.MeasureIdleAsync(CaseInstructions.IdleWindow, ct);
        }
        catch (Exception e) when (e is IOException or TimeoutException or InvalidDataException)
        {
            InstructionsFailed(e);
        }
    }

    private void InstructionsFailed(Exception e)
    {
        instructions = null;
        results.InstructionProblem = e.Message;
        run.Progress.Info($"case {definition.Key}: no instruction counts: {e.Message}");
    }

    /// <summary>With --instructions: the measured invocations the instruction window spans.</summary>
    private int WindowInvocations => CaseInstructions.WindowInvocations(definition.Iterations, definition.PaymentsPerInvocation);

    /// <summary>The started topology (for a soak, which drives its payments itself).</summary>
    public LightningNetwork Network => network ?? throw new InvalidOperationException($"case {definition.Key} has ended");

    /// <summary>The case's payments (for a soak, which drives them itself).</summary>
    public PaymentDriver Payments => driver ?? throw new InvalidOperationException($"case {definition.Key} is not set up");

    /// <summary>Each node's CPU nanoseconds per second at rest, measured before the first payment (null when unreadable).</summary>
    public IReadOnlyDictionary<string, double>? IdleCpu => results.IdleCpuNanosecondsPerSecond;

    /// <summary>
    /// Before an invocation, outside its timing: the nodes' resources (see <see cref="PaymentDriver.BeforeInvocation"/>),
    /// then, for an invocation the profiles sample (<see cref="CaseProfiler.Samples"/>), sampling switched on.
    /// </summary>
    /// <param name="alone">Only this case's invocation (false, as BenchmarkDotNet calls it: with alternating arms, every other arm's first).</param>
    public async Task BeforeInvocationAsync(bool alone = false)
    {
        if (!alone && Group is not null)
        {
            await Group.PartnersAsync(this);
        }
        if (driver is not null)
        {
            await driver.BeforeInvocationAsync(run.Cancellation);
        }
        var next = results.InvocationsStarted + 1;
        if (run.Turns is { } turns)
        {
            await turns.TakeTurnAsync(definition.Key, next, definition.PaymentsPerInvocation, run.Cancellation);
        }
        if (settleTimed && Group is not null)
        {
            results.InvocationSettleWaits.Add(await Group.SettleAsync());
        }
        else if (settleTimed && await WaitQuietAsync() is { } wait)
        {
            results.InvocationSettleWaits.Add(wait);
        }
        if (instructions is not null && next > run.Options.Warmups && next <= run.Options.Warmups + WindowInvocations)
        {
            await SettleAsync();
        }
        if (instructions is not null && next == run.Options.Warmups + 1)
        {
            await InstructionsAsync(i => i.OpenWindowAsync(run.Cancellation));
        }
        // An instruction run's invocations after its window count nothing, so they pay nothing (and cost no minutes).
        paysNothing = run.Valgrind is not null && next > run.Options.Warmups + WindowInvocations;
        // Last before the invocation, after every wait: its CPU reading, then its profiles switched on, so the window
        // sampled holds the payments only.
        if (driver is not null)
        {
            await driver.ReadCpuBeforeAsync(run.Cancellation);
        }
        if (profiler is not null && results.ProfileProblem is null && CaseProfiler.Samples(next, run.Options.Warmups))
        {
            results.MarkProfiled(next);
            await ProfileAsync(p => p.EnableAsync(run.Cancellation));
        }
        gcBefore = (GC.GetTotalPauseDuration(), GC.CollectionCount(0));
    }

    /// <summary>Waits until this case's nodes are quiet (see <see cref="TimedSettle"/>); null without their CPU counters.</summary>
    public async Task<(TimeSpan Waited, bool Quiet)?> WaitQuietAsync() =>
        cpuMeter is null || !Alive ? null
            : await cpuMeter.WaitQuietAsync(null, TimedSettle.Quiet, TimedSettle.BusyShare, TimedSettle.Limit, run.Cancellation, TimedSettle.Poll);

    /// <summary>With alternating arms: one invocation of this case outside BenchmarkDotNet (in another arm's iteration, or a warmup), timed by the harness.</summary>
    public async Task InvokeAloneAsync()
    {
        await BeforeInvocationAsync(alone: true);
        await PayAsync();
        await AfterInvocationAsync();
    }

    /// <summary>With alternating arms, a budgeted round's last group: the measured invocations marked and the figures taken without the idle rate (see <see cref="CaseResults.FinishProvisionally"/>).</summary>
    public void FinishProvisionally()
    {
        results.Complete(run.Options.Warmups, definition.Iterations);
        results.FinishProvisionally();
    }

    /// <summary>With alternating arms, at the group's end: the measured invocations marked, then the nodes' idle CPU (never throws).</summary>
    public Task MeasureIdleAsArmAsync()
    {
        results.Complete(run.Options.Warmups, definition.Iterations);
        return MeasureIdleAfterPaymentsAsync();
    }

    /// <summary>After an invocation, outside its timing: sampling off first, then the resources read.</summary>
    public async Task AfterInvocationAsync()
    {
        // First, so nothing the harness does after the invocation counts: only what ran between BeforeInvocationAsync's
        // end and here, which is BenchmarkDotNet's measured call.
        if (results.InvocationsStarted > run.Options.Warmups)
        {
            results.GcInInvocations.Add((GC.GetTotalPauseDuration() - gcBefore.Paused, GC.CollectionCount(0) - gcBefore.Collections));
        }
        if (profiler is not null)
        {
            await ProfileAsync(p => p.DisableAsync(run.Cancellation));
        }
        if (driver is not null)
        {
            await driver.ReadCpuAfterAsync(run.Cancellation);
        }
        if (instructions is not null && results.InvocationsStarted == run.Options.Warmups + WindowInvocations)
        {
            await SettleAsync();
            await InstructionsAsync(async i => results.Instructions = await i.CloseWindowAsync(run.Cancellation));
        }
        if (driver is not null)
        {
            await driver.AfterInvocationAsync(run.Cancellation);
        }
    }

    /// <summary>
    /// With --instructions, before each invocation of the window and before it closes: waits until the nodes are quiet,
    /// so a payment's trailing work (the commitments exchanged after the payer has its preimage) is neither folded into
    /// the next payment's nor cut off by the window's ends. Under Valgrind that work takes tens to hundreds of
    /// milliseconds; whether the next payment overtook it was the main part of what the count varied by.
    /// </summary>
    private async Task SettleAsync()
    {
        if (cpuMeter is null)
        {
            return;
        }
        var wait = await cpuMeter.WaitQuietAsync(results.IdleCpuNanosecondsPerSecond, CaseInstructions.SettleQuiet,
            CaseInstructions.SettleBusyShare, CaseInstructions.SettleLimit, run.Cancellation);
        results.SettleWaits.Add(wait);
    }

    private async Task InstructionsAsync(Func<CaseInstructions, Task> action)
    {
        try
        {
            await action(instructions!);
        }
        catch (Exception e) when (e is IOException or TimeoutException or InvalidDataException)
        {
            InstructionsFailed(e);
        }
    }

    /// <summary>A perf that stops answering ends the case's profiles, not the case.</summary>
    private async Task ProfileAsync(Func<ICaseProfiler, Task> action)
    {
        if (profiler is not { } current)
        {
            return;
        }
        try
        {
            await action(current);
        }
        catch (Exception e) when (e is IOException or TimeoutException)
        {
            results.ProfileProblem = e.Message;
            run.Progress.Info($"case {definition.Key}: profiling stopped: {e.Message}");
        }
    }

    /// <summary>One invocation: the case's payments at once. A node that dies ends the case: it is reported and torn down now.</summary>
    public async Task PayAsync()
    {
        var current = network ?? throw new InvalidOperationException($"case {definition.Key} has ended");
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(run.Cancellation, current.NodeDied);
        try
        {
            try
            {
                await driver!.RunBatchAsync(paysNothing ? 0 : definition.PaymentsPerInvocation, stop.Token);
            }
            catch (OperationCanceledException) when (current.Death is not null)
            {
                throw current.Death;
            }
        }
        catch (NodeDiedException e)
        {
            // BenchmarkDotNet ends the case on this exception; the topology goes now, not at the end of the run.
            run.Progress.Info($"{e.Summary}: tearing the case down, its results so far are kept");
            results.StoppedBy = $"node {e.Node} exited with code {e.ExitCode}";
            await EndAsync();
            throw;
        }
    }

    /// <summary>
    /// BenchmarkDotNet's cleanup: a timed case's end (idle window, report, teardown) is left running behind the next
    /// case's setup, except the run's (or a budgeted round's) last case, whose end is awaited, so the run's tables have
    /// every case; other cases end at once.
    /// </summary>
    public async Task CleanupAsync()
    {
        if (Group is not null)
        {
            // Its topology may still pay in the group's other cases; the group's last cleanup ends every arm.
            await Group.ArmDoneAsync(this);
            return;
        }
        if (!results.IdleAfterPaymentsPending)
        {
            await EndAsync();
            return;
        }
        // Its measured invocations are known now (BenchmarkDotNet computes the figures before the report would mark them).
        results.Complete(run.Options.Warmups, definition.Iterations);
        var order = run.Plan.Order;
        var last = order.Count == 0 || order[^1] == definition.Key;
        var end = EndBehindAsync();
        if (last)
        {
            await end;
            return;
        }
        run.LeaveEndBehind(end);
    }

    /// <summary>The nodes' idle CPU after the payments (they fall quiet first: a payment's last commitments), then the case's end. Never throws: a failed end is the case's and fails the run (<see cref="RunContext.EndFailed"/>).</summary>
    private async Task EndBehindAsync()
    {
        await MeasureIdleAfterPaymentsAsync();
        await EndQuietlyAsync();
    }

    /// <summary>The nodes' idle CPU after the payments, for the figures (empty when it cannot be read); never throws.</summary>
    public async Task MeasureIdleAfterPaymentsAsync()
    {
        IReadOnlyDictionary<string, double> idle = new Dictionary<string, double>();
        try
        {
            if (cpuMeter is not null && network is not null)
            {
                await cpuMeter.WaitQuietAsync(null, CaseInstructions.SettleQuiet, CaseInstructions.SettleBusyShare, TimeSpan.FromSeconds(1), run.Cancellation);
                idle = await cpuMeter.MeasureIdleAsync(IdleWindow, run.Cancellation);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or IOException)
        {
            run.Progress.Info($"case {definition.Key}: no idle CPU after its payments: {e.Message}");
        }
        finally
        {
            results.IdleMeasured(idle);
        }
    }

    /// <summary>The case's report and teardown (<see cref="EndAsync"/>); a failure is the case's and fails the run, it never throws.</summary>
    public async Task EndQuietlyAsync()
    {
        try
        {
            await EndAsync();
        }
        catch (Exception e)
        {
            // BenchmarkDotNet is done with the case: it cannot fail it any more, so the run counts it.
            results.StoppedBy ??= $"its end failed: {e.Message}";
            run.EndFailed();
            run.Progress.Info($"case {definition.Key}: ending it failed: {e.Message}");
        }
    }

    /// <summary>Reports the case (payments, spans) and tears its topology down; a second call (after a node died) does nothing.</summary>
    public async Task EndAsync()
    {
        var ending = network;
        if (ending is null || Interlocked.CompareExchange(ref network, null, ending) != ending)
        {
            return;
        }
        try
        {
            KeepInstructionProfiles();
            await FoldProfilesAsync();
            results.Steps = await new CaseReporter(run.RunId, run.ResultsDirectory, run.Progress)
                .ReportAsync(results, ending, run.Options.Warmups, definition.Iterations, run.Cancellation);
        }
        finally
        {
            await TearDownAsync(ending);
        }
    }

    /// <summary>With --instructions: each node's function counts of the measured window, kept for the run's report and written per topology.</summary>
    private void KeepInstructionProfiles()
    {
        if (instructions?.Dumps is not { } dumps || results.Instructions is not { } counts)
        {
            return;
        }
        var last = run.Options.Warmups + WindowInvocations;
        var payments = results.Records.Count(r => r.Outcome == Results.PaymentOutcome.Succeeded && r.Invocation > run.Options.Warmups && r.Invocation <= last);
        if (payments == 0)
        {
            return;
        }
        try
        {
            run.InstructionProfiles.Add(run.ResultsDirectory, definition.Key, results.Parameters, CaseFolder.Of(definition.Key),
                dumps.Window, dumps.Idle, counts.ToDictionary(c => c.Key, c => c.Value.IdleShare), payments);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            run.Progress.Info($"case {definition.Key}: function counts not written: {e.Message}");
        }
    }

    /// <summary>
    /// The nodes' folded stacks, written to profiles/CASE/NODE.folded while the containers still run (perf reads their
    /// binaries through them); a failure costs the case its profiles only.
    /// </summary>
    private async Task FoldProfilesAsync()
    {
        if (profiler is null || run.Profiling is null)
        {
            return;
        }
        var ending = profiler;
        profiler = null;
        try
        {
            if (results.ProfileProblem is not null)
            {
                return;
            }
            using var step = run.Progress.Begin($"case {definition.Key}: folding the nodes' stacks");
            if (ending is RelayCaseProfiler relayed && !double.IsNaN(relayed.MedianSwitchMs))
            {
                run.Progress.Info($"case {definition.Key}: profile switches through the agent took {relayed.MedianSwitchMs:0.0} ms (median round trip)");
            }
            var folded = await ending.StopAndFoldAsync(run.Cancellation);
            results.Profiles = ProfileFiles.Write(run.ResultsDirectory, CaseFolder.Of(definition.Key), folded, results.ProfiledPayments());
        }
        catch (Exception e) when (e is IOException or TimeoutException or UnauthorizedAccessException or InvalidDataException)
        {
            results.ProfileProblem = e.Message;
            run.Progress.Info($"case {definition.Key}: no profiles: {e.Message}");
        }
        finally
        {
            await run.Profiling.ReleaseAsync(ending);
        }
    }

    private async Task TearDownAsync(LightningNetwork? ending = null)
    {
        if (profiler is not null && run.Profiling is not null)
        {
            await run.Profiling.ReleaseAsync(profiler);
            profiler = null;
        }
        ending ??= Interlocked.Exchange(ref network, null);
        if (ending is null)
        {
            return;
        }
        await ending.DisposeAsync();
        if (results.Topology is { } topology)
        {
            results.Topology = topology with { Ended = DateTimeOffset.UtcNow };
        }
    }
}
