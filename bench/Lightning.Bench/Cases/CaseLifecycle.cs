using Lightning.Bench.Instruments;
using Lightning.Bench.Network;
using Lightning.Bench.Profiling;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Setup;
using Lightning.Bench.Workloads;

namespace Lightning.Bench.Cases;

/// <summary>
/// One benchmark case from start to end, in the order it happens: build the topology, start it, fund the wallets, open
/// the channels, wait for routes, ready the workload and the instruments, then run one invocation of the workload per
/// BenchmarkDotNet invocation with the instruments around it; at the end report the case and tear the topology down.
/// What an invocation does is the workload's (<see cref="IWorkload"/>); what watches it, the instruments'
/// (<see cref="CaseInstrument"/>, chosen in <see cref="InstrumentRegistry"/>): the lifecycle knows neither's details.
/// BenchmarkDotNet drives it through <see cref="Scenarios.ScenarioBenchmark"/> (setup, invocations, cleanup).
/// </summary>
internal sealed class CaseLifecycle : IRunningCase
{
    private const decimal FundingBtc = 1m;

    private readonly RunContext run;
    private readonly CaseDefinition definition;
    private readonly CaseResults results;
    private readonly OperationLog log;
    private LightningNetwork? network;
    private IWorkload? workload;
    private INodeMeter? cpuMeter;
    private IReadOnlyList<CaseInstrument> instruments = [];
    private Invocation? current;

    /// <summary>
    /// A timed case (no Valgrind, perf or soak) measures its nodes' idle CPU after its operations, while the next case's
    /// topology is set up, instead of before them: the window (a third to a half of a topology's time at
    /// Concurrency=1) then costs the run nothing. Idle nodes' timers use the same CPU time whatever else the machine
    /// does; the next case waits for this one's end before its first operation.
    /// </summary>
    private readonly bool idleAfterOperations;

    private CaseLifecycle(RunContext run, CaseDefinition definition)
    {
        this.run = run;
        this.definition = definition;
        results = run.Results.StartCase(
            definition.Key,
            definition.Parameters,
            definition.PaymentsPerInvocation,
            definition.Workload.Noun
        );
        log = new OperationLog(run.Results, results);
        idleAfterOperations = run.Valgrind is null && run.Profiling is null && run.Options.Soak is null;
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

    /// <summary>Builds the case's topology up to the first invocation; on failure it is torn down before the exception leaves.</summary>
    /// <param name="awaitEndBehind">Wait for the previous case's end after the setup (false: the caller waits, after setting up more).</param>
    public static async Task<CaseLifecycle> StartAsync(
        RunContext run,
        CaseDefinition definition,
        bool awaitEndBehind = true
    )
    {
        var lifecycle = new CaseLifecycle(run, definition);
        try
        {
            await lifecycle.SetUpAsync();
            if (awaitEndBehind)
            {
                // The previous case's end (idle window, report, teardown) ran beside this setup; none of it beside an invocation.
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

    /// <summary>Tears down a case that will not run (its setup or its group's failed); its figures are not waited for.</summary>
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
        network = run.CreateNetwork(topology, definition.Key, definition.TraceMode, definition.Id.Topology);
        var started = DateTimeOffset.UtcNow;
        var clock = new SetupTimes.Clock();
        await network.StartAsync(run.Fragments, clock, ct);
        results.Topology = new CaseRecord(
            definition.Key,
            network.Options.ProjectName,
            topology.Nodes.ToDictionary(n => n.Name, n => n.Image),
            network.Nodes.ToDictionary(n => n.Key, n => n.Value.Version),
            started,
            null
        )
        {
            NodeKinds = topology.Nodes.ToDictionary(n => n.Name, n => n.Kind),
            Host = network.Host.HostName,
            NodeHosts = network.Host.NodeHosts,
        };

        // 2. Fund the channel openers that pay from their wallets (the miner pays for the others' channels), 3. open the
        // channels, 4. wait until every payer has a route.
        var opener = new ChannelOpener(network, run.Progress);
        await new WalletFunder(network, run.Progress).FundAsync(
            opener.WalletFunders(topology.Channels),
            FundingBtc,
            ct
        );
        clock.Lap("fund");
        await opener.OpenAsync(topology.Channels, ct);
        clock.Lap("channels");
        await opener.WaitRoutesAsync(topology.Flows, run.Options.AmountMsat, ct);
        clock.Lap("routes");
        // A node with a history size gets its past now, and is restarted (the restart's times are setup steps).
        if (topology.Nodes.Any(n => n.HistoryRows > 0))
        {
            await new HistoryMaker(network, run.Kinds, run.Progress, run.Snapshots).MakeAsync(
                topology,
                run.Options.HistoryOf,
                clock,
                ct
            );
        }
        // A node with a graph share gets the run's graph in its gossip store now, and is restarted (its load a setup step).
        if (topology.Nodes.Any(n => n.GraphPercent > 0))
        {
            await new GraphLoader(
                network,
                run.Kinds,
                run.Graph ?? throw new InvalidOperationException("a topology with a graph share needs --graph"),
                run.Progress
            ).LoadAsync(topology, clock, ct);
        }
        var setup = clock.Times;
        run.Progress.Info($"case {definition.Key}: topology ready in {setup}");

        // 5. The instruments, and what they measure of the idle nodes (the CPU rate, so CPU per operation counts what
        // operations cost, not time passing; with --instructions, at the same time, their idle instructions).
        var cpu = await network.CreateCpuMeterAsync(ct);
        cpuMeter = cpu.Problem is null ? cpu : null;
        if (cpuMeter is null)
        {
            run.Progress.Info($"case {definition.Key}: no CPU time per operation: {cpu.Problem}");
        }
        else
        {
            setup = setup with
            {
                IdleWindowSeconds = NodeCpuWindow.IdleWindow.TotalSeconds,
                IdleAfterPayments = idleAfterOperations,
            };
            if (idleAfterOperations)
            {
                results.AwaitIdleAfterPayments();
            }
        }
        if (run.Alternating && !results.IdleAfterPaymentsPending)
        {
            // An alternating arm's figures wait for the group's end, when its last invocation (in another arm's case) is done.
            results.AwaitIdleAfterPayments();
        }
        results.Topology = results.Topology with { Setup = setup };
        instruments = InstrumentRegistry.For(run, this, definition, results, network, cpuMeter, idleAfterOperations);
        await Task.WhenAll(instruments.Select(i => i.MeasureIdleBeforeAsync(ct)));

        // What an operation calls on this build's payer (a release may call another payment command).
        var payer = network.Nodes[topology.Flows[0].Payer];
        results.Method = definition.Workload.MethodOf(
            payer.Calls ?? run.Kinds.Get(topology.Node(payer.Name).Kind).PaymentCalls
        );

        // 6. The workload, ready for its first invocation (with --pregenerate-invoices, every invoice made ahead).
        var ahead = (run.Options.Warmups + definition.Iterations) * definition.PaymentsPerInvocation;
        workload = definition.Workload.Create(
            new WorkloadSetup(
                network.Nodes,
                topology.Flows,
                run.Options.AmountMsat,
                $"lnbench-{run.RunId}",
                log,
                run.Options.PregenerateInvoices
            )
            {
                OperationTimeout = run.Options.OperationTimeout,
                Say = run.Progress.Info,
                // Each topology asks the next queries of the seeded list (both builds of a pair the same ones), so more
                // topologies sample more of the graph's destinations and amounts.
                Routes =
                    topology.Nodes.FirstOrDefault(n => n.GraphPercent > 0) is { } graphNode && run.Graph is { } graph
                        ? new Workloads.Routes.RouteQueries(
                            graph.Queries(graphNode.GraphPercent),
                            graph.Ids.Hex,
                            graph.Name
                        )
                        {
                            First = (definition.Id.Topology - 1) * ahead,
                        }
                        : null,
            }
        );
        using (run.Options.PregenerateInvoices ? run.Progress.Begin($"readying {ahead} operations ahead") : null)
        {
            await workload.PrepareAsync(ahead, ct);
        }

        // 7. The instruments that start now (with --profile: a perf recording per node, off until the invocations it samples).
        foreach (var instrument in instruments)
        {
            await instrument.StartAsync(ct);
        }
        run.Progress.Info($"case {definition.Key}: topology ready, benchmarking");
    }

    /// <summary>The started topology (for a soak, which drives its payments itself).</summary>
    public LightningNetwork Network =>
        network ?? throw new InvalidOperationException($"case {definition.Key} has ended");

    /// <summary>The case's workload (for a soak, which drives its payments itself).</summary>
    public IWorkload Workload =>
        workload ?? throw new InvalidOperationException($"case {definition.Key} is not set up");

    /// <summary>Each node's CPU nanoseconds per second at rest, measured before the first payment (null when unreadable).</summary>
    public IReadOnlyDictionary<string, double>? IdleCpu => results.IdleCpuNanosecondsPerSecond;

    /// <summary>
    /// Before an invocation, outside its timing: with alternating arms, every other arm's invocation first; then what the
    /// workload readies for it; then every instrument in order (<see cref="InstrumentRegistry"/>).
    /// </summary>
    public Task BeforeInvocationAsync() => BeforeInvocationAsync(alone: false);

    /// <inheritdoc cref="BeforeInvocationAsync()"/>
    /// <param name="alone">Only this case's invocation (false, as BenchmarkDotNet calls it: with alternating arms, every other arm's first).</param>
    public async Task BeforeInvocationAsync(bool alone)
    {
        if (!alone && Group is not null)
        {
            await Group.PartnersAsync(this);
        }
        var number = results.StartInvocation();
        var invocation = current = new Invocation(number, number > run.Options.Warmups);
        if (workload is not null)
        {
            await workload.BeforeInvocationAsync(definition.PaymentsPerInvocation, run.Cancellation);
        }
        foreach (var instrument in instruments)
        {
            await instrument.BeforeInvocationAsync(invocation, run.Cancellation);
        }
    }

    /// <summary>The wait for quiet nodes before a timed invocation (<see cref="TimedSettle"/>): the whole group's with alternating arms; null without CPU counters.</summary>
    public async Task<(TimeSpan Waited, bool Quiet)?> SettleBeforeInvocationAsync() =>
        Group is not null ? await Group.SettleAsync() : await WaitQuietAsync();

    /// <summary>Waits until this case's nodes are quiet (see <see cref="TimedSettle"/>); null without their CPU counters.</summary>
    public async Task<(TimeSpan Waited, bool Quiet)?> WaitQuietAsync() =>
        cpuMeter is null || !Alive
            ? null
            : await cpuMeter.WaitQuietAsync(
                null,
                TimedSettle.Quiet,
                TimedSettle.BusyShare,
                TimedSettle.Limit,
                run.Cancellation,
                TimedSettle.Poll
            );

    /// <summary>With alternating arms: one invocation of this case outside BenchmarkDotNet (in another arm's iteration, or a warmup), timed by the harness.</summary>
    public async Task InvokeAloneAsync()
    {
        await BeforeInvocationAsync(alone: true);
        await InvokeAsync();
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
        return MeasureIdleAfterOperationsAsync();
    }

    /// <summary>After an invocation, outside its timing: every instrument in reverse order, the innermost first.</summary>
    public async Task AfterInvocationAsync()
    {
        if (current is not { } invocation)
        {
            return;
        }
        current = null;
        for (var i = instruments.Count - 1; i >= 0; i--)
        {
            await instruments[i].AfterInvocationAsync(invocation, run.Cancellation);
        }
    }

    /// <summary>One invocation: the workload's operations at once. A node that dies ends the case: it is reported and torn down now.</summary>
    public async Task InvokeAsync()
    {
        var live = network ?? throw new InvalidOperationException($"case {definition.Key} has ended");
        var invocation =
            current
            ?? throw new InvalidOperationException($"case {definition.Key}: an invocation ran without its setup");
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(run.Cancellation, live.NodeDied);
        try
        {
            try
            {
                var clock = System.Diagnostics.Stopwatch.StartNew();
                await workload!.RunAsync(
                    invocation.Number,
                    invocation.SkipOperations ? 0 : definition.PaymentsPerInvocation,
                    stop.Token
                );
                if (log.TakeConnectionLost())
                {
                    // A node closed its RPC socket: if its container is gone, stop the case now instead of failing every operation.
                    await live.ThrowIfNodeDiedAsync(stop.Token);
                }
                invocation.Elapsed = clock.Elapsed;
            }
            catch (OperationCanceledException) when (live.Death is not null)
            {
                throw live.Death;
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
            // Its topology may still run in the group's other cases; the group's last cleanup ends every arm.
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

    /// <summary>The nodes' idle CPU after the operations, then the case's end. Never throws: a failed end is the case's and fails the run (<see cref="RunContext.EndFailed"/>).</summary>
    private async Task EndBehindAsync()
    {
        await MeasureIdleAfterOperationsAsync();
        await EndQuietlyAsync();
    }

    /// <summary>What the instruments measure of the idle nodes after the operations (the figures wait for it); never throws.</summary>
    public async Task MeasureIdleAfterOperationsAsync()
    {
        try
        {
            if (network is not null)
            {
                await Task.WhenAll(instruments.Select(i => i.MeasureIdleAfterAsync(run.Cancellation)));
            }
        }
        finally
        {
            if (results.IdleAfterPaymentsPending)
            {
                results.IdleMeasured(new Dictionary<string, double>());
            }
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

    /// <summary>The instruments' ends, the case's report (operations, spans) and its teardown; a second call (after a node died) does nothing.</summary>
    public async Task EndAsync()
    {
        var ending = network;
        if (ending is null || Interlocked.CompareExchange(ref network, null, ending) != ending)
        {
            return;
        }
        try
        {
            foreach (var instrument in instruments)
            {
                await instrument.EndAsync(run.Cancellation);
            }
            results.Steps = await new CaseReporter(run.RunId, run.ResultsDirectory, run.Progress).ReportAsync(
                results,
                ending,
                run.Options.Warmups,
                definition.Iterations,
                run.Cancellation
            );
        }
        finally
        {
            await TearDownAsync(ending);
        }
    }

    private async Task TearDownAsync(LightningNetwork? ending = null)
    {
        foreach (var instrument in instruments)
        {
            await instrument.ReleaseAsync();
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
