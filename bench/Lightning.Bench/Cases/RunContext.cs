using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Cases;

/// <summary>
/// Everything one run's cases share, passed explicitly: options, engine, compose, fragments, node kinds, results
/// folder and model, cancellation; the run's topologies (<see cref="RunTopologies"/>) start from its chain (<see cref="ChainSeeder"/>).
/// </summary>
internal sealed class RunContext : IBenchmarkRun, IAsyncDisposable
{
    private readonly CancellationTokenSource cancellation = new();
    private readonly RunTopologies topologies;
    private readonly ChainSeeder chain;

    public RunContext(
        HarnessOptions options,
        ScenarioInfo scenario,
        DockerEngine engine,
        IComposeRunner compose,
        ComposeFragments fragments,
        NodeKindCatalog kinds,
        RunProgress progress,
        Func<string, Profiling.RunProfiling?>? profiling = null,
        Instructions.HostValgrind? valgrind = null
    )
    {
        Options = options;
        Scenario = scenario;
        Engine = engine;
        Compose = compose;
        Fragments = fragments;
        Kinds = kinds;
        Snapshots =
            options.GivesHistory && options.SnapshotDirectory is { } snapshots
                ? new Setup.HistorySnapshotStore(snapshots, engine)
                : null;
        Progress = progress;
        Started = DateTimeOffset.UtcNow;
        RunId = $"{Started:yyyyMMdd-HHmmss}-{Guid.NewGuid().ToString("N")[..4]}";
        ResultsDirectory = Path.GetFullPath(Path.Combine(options.ResultsRoot, $"{RunId}-{scenario.Name}"));
        Plan = new ExecutionPlan(options.Seed ?? Random.Shared.Next());
        TopologyRange = options.TopologyRange ?? (1, options.Topologies);
        Profiling = profiling?.Invoke(RunId);
        Valgrind = valgrind;
        Results.Noun = OperationNoun.Of(WorkloadNames.Select(w => Workloads.WorkloadCatalog.Get(w).Noun));
        Platform = new SingleHostPlatform(engine, compose, kinds, progress);
        topologies = new RunTopologies(RunId, options, engine, kinds, progress, () => Platform, valgrind);
        chain = new ChainSeeder(RunId, options.WorkRoot, options.BitcoindImage, progress);
    }

    /// <summary>Another program's turns between invocations (LNBENCH_TURN_SOCKET, for benchmarks/harness-overhead.sh), or null.</summary>
    public TurnSocket? Turns { get; } = TurnSocket.FromEnvironment();

    /// <summary>The run's profiling (--profile), or null.</summary>
    public Profiling.RunProfiling? Profiling { get; }

    /// <summary>Why the run has no profiles though --profile-if-available asked for them, or null.</summary>
    public string? ProfileSkipped { get; init; }

    /// <summary>The mainnet graph (--graph), read and checked before any container; null without one.</summary>
    public Graph.RunGraph? Graph { get; init; }

    /// <summary>With --instructions: the host's Valgrind, which every Lightning node runs under; else null.</summary>
    public Instructions.HostValgrind? Valgrind { get; }

    /// <summary>With --instructions: every topology's function counts, for the run's report.</summary>
    public Instructions.RunInstructionProfiles InstructionProfiles { get; } = new();

    /// <summary>
    /// A budgeted run's round is running and another may follow: its last group of alternating arms is not awaited but
    /// left to end behind the next round's setup (<see cref="ArmGroup.ArmDoneAsync"/>); the run awaits it when it stops.
    /// </summary>
    public bool RoundsMayFollow { get; set; }

    /// <summary>The Topology indices BenchmarkDotNet runs next: all of --topologies, or a budgeted run's round.</summary>
    public (int First, int Last) TopologyRange { get; set; }

    /// <summary>The seeded, interleaved order of the cases.</summary>
    public ExecutionPlan Plan { get; }

    public HarnessOptions Options { get; }

    public ScenarioInfo Scenario { get; }

    public DockerEngine Engine { get; }

    public IComposeRunner Compose { get; }

    public ComposeFragments Fragments { get; }

    public NodeKindCatalog Kinds { get; }

    /// <summary>Where the run's histories are kept between topologies (null: no history, or --snapshots off).</summary>
    public Setup.HistorySnapshotStore? Snapshots { get; }

    public RunProgress Progress { get; }

    public string RunId { get; }

    public DateTimeOffset Started { get; }

    public string ResultsDirectory { get; }

    public RunResults Results { get; } = new();

    public CancellationToken Cancellation => cancellation.Token;

    public IReadOnlyList<BuildSpec> Builds => Options.Builds;

    public IReadOnlyList<string> TraceModes => Options.Traces;

    public string BitcoindImage => Options.BitcoindImage;

    public string HistoryOf => Options.HistoryOf;

    public IReadOnlyDictionary<string, string> Placements => Options.Placements;

    /// <summary>BenchmarkDotNet's case started: alone, or with alternating arms as its group's arm (<see cref="ArmGroup"/>).</summary>
    public async Task<IRunningCase> StartCaseAsync(
        CaseDefinition definition,
        Func<IReadOnlyDictionary<string, string>, CaseDefinition> definitionOf
    ) =>
        Alternating
            ? await ArmGroup.StartAsync(this, definition, definitionOf)
            : await CaseLifecycle.StartAsync(this, definition);

    /// <summary>The workloads of this run's cases: --workload, else the scenario's own.</summary>
    public IReadOnlyList<string> WorkloadNames => Options.Workloads.Count > 0 ? Options.Workloads : [Scenario.Workload];

    /// <summary>The values of a swept parameter of this run's scenario: from the command line, else the scenario's default.</summary>
    public IReadOnlyList<int> Sweep(string parameter) =>
        Scenario.Parameters.Single(p => p.Name == parameter).ValuesFrom(Options.Sweeps);

    /// <summary>
    /// Measured invocations per topology by Concurrency where they differ from --iterations: a budgeted run sets them
    /// after each round from the pairs' variance components, unless --iterations was given (see
    /// <see cref="Statistics.IterationPlan"/>).
    /// </summary>
    public IReadOnlyDictionary<int, int> IterationsByConcurrency { get; set; } = new Dictionary<int, int>();

    /// <summary>The measured invocations per topology asked for at <paramref name="concurrency"/> (--iterations or the budget's plan).</summary>
    public int IterationsFor(int concurrency) =>
        IterationsByConcurrency.TryGetValue(concurrency, out var n) ? n : Options.Iterations;

    /// <summary>Whether the arms of a pair are live at once and alternate their invocations (<see cref="HarnessOptions.AlternatesArms"/>).</summary>
    public bool Alternating => Options.AlternatesArms;

    /// <summary>The arms of a cell: builds × trace modes.</summary>
    public int Arms => Options.Builds.Count * Options.Traces.Count;

    /// <summary>
    /// BenchmarkDotNet's iterations per case: with alternating arms, each arm's BenchmarkDotNet case makes one invocation
    /// of every arm per iteration, so a topology's measured invocations spread over its group's cases.
    /// </summary>
    public int CaseIterationsFor(int concurrency) =>
        Alternating ? BenchConfig.IterationsPerCase(IterationsFor(concurrency), Arms) : IterationsFor(concurrency);

    /// <summary>A topology's measured invocations at <paramref name="concurrency"/>: what it measured in its own case and as a partner.</summary>
    public int MeasuredFor(int concurrency) =>
        Alternating ? CaseIterationsFor(concurrency) * Arms : IterationsFor(concurrency);

    /// <summary>With alternating arms: the group of topologies live now (see <see cref="ArmGroup"/>), or null.</summary>
    public ArmGroup? LiveGroup { get; set; }

    /// <summary>Cases that start alone though they alternate: their group could not be set up with them.</summary>
    public HashSet<string> StartAlone { get; } = [];

    /// <summary>Ends the live group of alternating arms, if one is left (its last case failed before its cleanup); awaited.</summary>
    public async Task EndLiveGroupAsync()
    {
        if (LiveGroup is { } group)
        {
            await group.EndAllAsync(wait: true);
        }
        await EndBehindAsync();
    }

    /// <summary>
    /// Mines the run's regtest chain once (<see cref="ChainSeeder"/>), so each topology starts from a copy at height 101
    /// instead of mining it. Its compose file and log go to RESULTS/chain.
    /// </summary>
    public Task SeedChainAsync() =>
        Platform.SeedsChain
            ? chain.MineAsync(topologies, Path.Combine(ResultsDirectory, "chain"), Fragments, Cancellation)
            : Task.CompletedTask;

    /// <summary>A new topology's handle for a case, tracked until it is torn down; call StartAsync on it next.</summary>
    public LightningNetwork CreateNetwork(TopologySpec topology, string caseKey, string traceMode, int replicate = 1) =>
        topologies.Create(
            topology,
            Path.Combine(ResultsDirectory, "cases", CaseFolder.Of(caseKey)),
            traceMode,
            chain.Seed,
            replicate
        );

    /// <summary>Where the run's topologies live: this host, or (--swarm) the run's swarm once started. Its end follows the topologies' (<see cref="DisposeAsync"/>).</summary>
    public ITopologyPlatform Platform { get; set; }

    private Task endBehind = Task.CompletedTask;

    /// <summary>
    /// A timed case's end (its idle window, report and teardown) left running while the next case is set up; the next
    /// case waits for it before its first payment (<see cref="EndBehindAsync"/>), so nothing of it runs beside a
    /// measured invocation.
    /// </summary>
    public void LeaveEndBehind(Task end) => endBehind = end;

    /// <summary>Waits for the previous case's end if it is still running (see <see cref="LeaveEndBehind"/>).</summary>
    public Task EndBehindAsync() => endBehind;

    private int endsFailed;

    /// <summary>A case whose end (report or teardown) failed after BenchmarkDotNet was done with it: it fails the run as a failed case does.</summary>
    public void EndFailed() => Interlocked.Increment(ref endsFailed);

    /// <summary>How many cases' ends failed (see <see cref="EndFailed"/>).</summary>
    public int EndsFailed => Volatile.Read(ref endsFailed);

    /// <summary>What stopped the run before its end (a signal's name: "SIGHUP"), or null while nothing did.</summary>
    public string? StoppedBy { get; private set; }

    /// <summary>A signal (<paramref name="why"/>): stop waiting on nodes; teardown follows in <see cref="DisposeAsync"/>.</summary>
    public void Cancel(string why)
    {
        StoppedBy ??= why;
        cancellation.Cancel();
    }

    /// <summary>Stops profiling, tears down every topology still alive and whatever the run left (by its label), then removes the chain seed.</summary>
    public async ValueTask DisposeAsync()
    {
        try
        {
            await endBehind.WaitAsync(TimeSpan.FromSeconds(30));
        }
        catch (Exception e) when (e is TimeoutException or OperationCanceledException)
        {
            // Its topology is torn down below with the others.
        }
        if (Profiling is not null)
        {
            await Profiling.DisposeAsync();
        }
        await topologies.DisposeAsync();
        try
        {
            await Platform.DisposeAsync();
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            Progress.Info(
                $"could not remove all of the run's {Platform.Name} resources ({e.Message}): the next run sweeps them by label"
            );
        }
        chain.Remove();
        Turns?.Dispose();
        // The cancellation source is not disposed: after Ctrl+C, BenchmarkDotNet's thread may still read its token.
    }
}
