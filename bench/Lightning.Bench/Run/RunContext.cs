using Lightning.Bench.Chain;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Run;

/// <summary>
/// Everything one run's cases share, passed explicitly: options, engine, compose, fragments, node kinds, results
/// folder and model, cancellation, and the topologies alive right now (so a stopped run can tear them down).
/// </summary>
public sealed class RunContext : IAsyncDisposable
{
    private readonly List<LightningNetwork> networks = new();
    private readonly CancellationTokenSource cancellation = new();
    private string? seedFolder;
    private int topologyNumber;

    public RunContext(HarnessOptions options, ScenarioInfo scenario, DockerEngine engine, IComposeRunner compose, ComposeFragments fragments,
        NodeKindCatalog kinds, RunProgress progress, Func<string, Profiling.RunProfiling?>? profiling = null)
    {
        Options = options;
        Scenario = scenario;
        Engine = engine;
        Compose = compose;
        Fragments = fragments;
        Kinds = kinds;
        Progress = progress;
        Started = DateTimeOffset.UtcNow;
        RunId = $"{Started:yyyyMMdd-HHmmss}-{Guid.NewGuid().ToString("N")[..4]}";
        ResultsDirectory = Path.GetFullPath(Path.Combine(options.ResultsRoot, $"{RunId}-{scenario.Name}"));
        Plan = new ExecutionPlan(options.Seed ?? Random.Shared.Next());
        Profiling = profiling?.Invoke(RunId);
    }

    /// <summary>The run's profiling (--profile), or null.</summary>
    public Profiling.RunProfiling? Profiling { get; }

    /// <summary>Why the run has no profiles though --profile-if-available asked for them, or null.</summary>
    public string? ProfileSkipped { get; init; }

    /// <summary>The seeded, interleaved order of the cases.</summary>
    public ExecutionPlan Plan { get; }

    public HarnessOptions Options { get; }

    public ScenarioInfo Scenario { get; }

    public DockerEngine Engine { get; }

    public IComposeRunner Compose { get; }

    public ComposeFragments Fragments { get; }

    public NodeKindCatalog Kinds { get; }

    public RunProgress Progress { get; }

    public string RunId { get; }

    public DateTimeOffset Started { get; }

    public string ResultsDirectory { get; }

    public RunResults Results { get; } = new();

    public CancellationToken Cancellation => cancellation.Token;

    /// <summary>The values of a swept parameter of this run's scenario: from the command line, else the scenario's default.</summary>
    public IReadOnlyList<int> Sweep(string parameter) =>
        Scenario.Parameters.Single(p => p.Name == parameter).ValuesFrom(Options);

    /// <summary>The run's chain, mined once and copied into every topology (null until <see cref="SeedChainAsync"/>).</summary>
    public ChainSeed? Seed { get; private set; }

    /// <summary>
    /// Mines the run's regtest chain on a bitcoind of its own and keeps it (<see cref="ChainSeed"/>), so each topology
    /// starts from a copy at height 101 instead of mining it. Its compose file and log go to RESULTS/chain.
    /// </summary>
    public async Task SeedChainAsync()
    {
        using var step = Progress.Begin($"mining the run's regtest chain ({BitcoindBootstrap.InitialBlocks} blocks) once, for every topology to start from");
        var folder = PrivateFiles.CreateDirectory(Path.Combine(Options.WorkRoot, $"lnbench-{RunId}-seed".ToLowerInvariant()));
        NodeFolderSweeper.Claim(folder);
        seedFolder = folder;
        await using var network = CreateNetworkIn(TopologySpec.ChainOnly(Options.BitcoindImage), Path.Combine(ResultsDirectory, "chain"), TraceModes.Off);
        await network.StartAsync(Fragments, ct: Cancellation);
        Seed = await network.SaveChainAsync(folder, Cancellation);
    }

    /// <summary>A new topology's handle for a case, tracked until it is torn down; call StartAsync on it next.</summary>
    public LightningNetwork CreateNetwork(TopologySpec topology, string caseKey, string traceMode) =>
        CreateNetworkIn(topology, Path.Combine(ResultsDirectory, "cases", CaseFolder(caseKey)), traceMode);

    private LightningNetwork CreateNetworkIn(TopologySpec topology, string resultsDirectory, string traceMode)
    {
        var number = Interlocked.Increment(ref topologyNumber);
        var options = new NetworkOptions(
            RunId,
            ProjectName: $"lnbench-{RunId}-{number}".ToLowerInvariant(),
            WorkDirectory: Options.WorkRoot,
            ResultsDirectory: resultsDirectory,
            ContainerUser: HostUser.ContainerUser,
            TraceSockets: traceMode != TraceModes.Off,
            CollectTraces: traceMode == TraceModes.On,
            DevTraceFile: traceMode == TraceModes.On && Options.TraceCheck,
            StepTimeout: Options.StepTimeout,
            Seed: Seed);
        var network = LightningNetwork.Create(topology, options, Engine, Compose, Kinds, Progress);
        lock (networks)
        {
            networks.Add(network);
        }
        return network;
    }

    /// <summary>Ctrl+C or SIGTERM: stop waiting on nodes; teardown follows in <see cref="DisposeAsync"/>.</summary>
    public void Cancel() => cancellation.Cancel();

    /// <summary>Tears down every topology still alive, then removes whatever the run left, by its label.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Profiling is not null)
        {
            await Profiling.DisposeAsync();
        }
        List<LightningNetwork> alive;
        lock (networks)
        {
            alive = networks.ToList();
            networks.Clear();
        }
        foreach (var network in alive)
        {
            try
            {
                await network.DisposeAsync();
            }
            catch (Exception e)
            {
                Progress.Info($"{network.Options.ProjectName}: teardown failed ({e.Message}); removing the run's resources by label");
            }
        }
        try
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            await new ResourceSweeper(Engine).RemoveAsync($"{RunLabels.Run}={RunId}", timeout.Token);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            Progress.Info($"could not remove the run's Docker resources by label ({e.Message}): remove containers labelled {RunLabels.Run}={RunId} by hand");
        }
        if (seedFolder is not null)
        {
            try
            {
                Directory.Delete(seedFolder, recursive: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                Progress.Info($"could not remove the run's chain seed {seedFolder}: {e.Message}");
            }
        }
        // The cancellation source is not disposed: after Ctrl+C, BenchmarkDotNet's thread may still read its token.
    }

    /// <summary>"Build=cln:v26.06.6, Concurrency=1" → "Build-cln-v26-06-6-Concurrency-1".</summary>
    public static string CaseFolder(string caseKey) =>
        System.Text.RegularExpressions.Regex.Replace(caseKey, "[^A-Za-z0-9]+", "-").Trim('-');
}
