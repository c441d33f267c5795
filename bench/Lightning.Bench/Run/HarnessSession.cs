using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.Options;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Run;

/// <summary>
/// One harness run: options, engine, results folder, payments, and the topologies alive right now.
/// BenchmarkDotNet creates scenario instances itself, so they reach the run through <see cref="Current"/>.
/// </summary>
public sealed class HarnessSession : IAsyncDisposable
{
    private static HarnessSession? current;
    private readonly List<LightningNetwork> networks = new();
    private readonly List<CaseRecord> cases = new();
    private readonly CancellationTokenSource cancellation = new();
    private int caseNumber;

    public HarnessSession(HarnessOptions options, ScenarioInfo scenario, DockerEngine engine, ComposeCli compose, ComposeFragments fragments, RunProgress progress)
    {
        Options = options;
        Scenario = scenario;
        Engine = engine;
        Compose = compose;
        Fragments = fragments;
        Progress = progress;
        Started = DateTimeOffset.UtcNow;
        RunId = $"{Started:yyyyMMdd-HHmmss}-{Guid.NewGuid().ToString("N")[..4]}";
        ResultsDirectory = Path.GetFullPath(Path.Combine(options.ResultsRoot, $"{RunId}-{scenario.Name}"));
    }

    public static HarnessSession Current => current ?? throw new InvalidOperationException(
        "no harness session: scenarios run through Lightning.Bench's Program (./run.sh), not on their own");

    public HarnessOptions Options { get; }

    public ScenarioInfo Scenario { get; }

    public DockerEngine Engine { get; }

    public ComposeCli Compose { get; }

    public ComposeFragments Fragments { get; }

    public RunProgress Progress { get; }

    public string RunId { get; }

    public DateTimeOffset Started { get; }

    public string ResultsDirectory { get; }

    public PaymentLedger Payments { get; } = new();

    public CancellationToken Cancellation => cancellation.Token;

    public static void Activate(HarnessSession? session) => current = session;

    /// <summary>The values of a swept parameter of this run's scenario: from the command line, else the scenario's default.</summary>
    public IReadOnlyList<int> Sweep(string parameter) =>
        Scenario.Parameters.Single(p => p.Name == parameter).ValuesFrom(Options);

    /// <summary>Creates and starts a topology for one benchmark case; on failure it is torn down before the exception leaves.</summary>
    public async Task<LightningNetwork> StartNetworkAsync(TopologySpec topology, string caseKey, string traceMode)
    {
        var number = Interlocked.Increment(ref caseNumber);
        var options = new NetworkOptions(
            RunId,
            ProjectName: $"lnbench-{RunId}-{number}".ToLowerInvariant(),
            WorkDirectory: Options.WorkRoot,
            ResultsDirectory: Path.Combine(ResultsDirectory, "cases", CaseFolder(caseKey)),
            ContainerUser: HostUser.ContainerUser,
            TraceSockets: traceMode != TraceModes.Off,
            CollectTraces: traceMode == TraceModes.On,
            DevTraceFile: traceMode == TraceModes.On && Options.TraceCheck,
            StepTimeout: Options.StepTimeout);
        var network = LightningNetwork.Create(topology, options, Engine, Compose, Progress);
        lock (networks)
        {
            networks.Add(network);
        }
        var started = DateTimeOffset.UtcNow;
        try
        {
            await network.StartAsync(Fragments, Cancellation);
            lock (cases)
            {
                cases.Add(new CaseRecord(caseKey, options.ProjectName,
                    topology.Nodes.ToDictionary(n => n.Name, n => n.Image),
                    network.Nodes.ToDictionary(n => n.Key, n => n.Value.Version),
                    started, null));
            }
            return network;
        }
        catch
        {
            await network.DisposeAsync();
            throw;
        }
    }

    /// <summary>The cases started so far, for the manifest.</summary>
    public IReadOnlyList<CaseRecord> Cases
    {
        get
        {
            lock (cases)
            {
                return cases.ToList();
            }
        }
    }

    private readonly List<(IReadOnlyDictionary<string, string> Parameters, CaseSteps Steps)> steps = new();

    /// <summary>Each case's payer steps, for the build comparison in span-summary.md.</summary>
    public IReadOnlyList<(IReadOnlyDictionary<string, string> Parameters, CaseSteps Steps)> Steps
    {
        get
        {
            lock (steps)
            {
                return steps.ToList();
            }
        }
    }

    public void RecordSteps(IReadOnlyDictionary<string, string> parameters, CaseSteps caseSteps)
    {
        lock (steps)
        {
            steps.Add((parameters, caseSteps));
        }
    }

    /// <summary>
    /// When the run is stopped mid-case: the payments of cases not yet reported go to payments.csv as they are
    /// (the last invocations counted as measured), so a partial run keeps what it measured.
    /// </summary>
    public void WriteUnreportedPayments()
    {
        var reported = Steps.Select(s => s.Steps.CaseKey).ToHashSet();
        foreach (var results in Payments.Cases.Where(c => !reported.Contains(c.CaseKey)))
        {
            results.Complete(Options.Warmups, Options.Iterations);
            Directory.CreateDirectory(ResultsDirectory);
            PaymentCsv.Append(Path.Combine(ResultsDirectory, PaymentCsv.FileName), results.Records);
        }
    }

    public void CaseEnded(string projectName)
    {
        lock (cases)
        {
            var index = cases.FindIndex(c => c.ComposeProject == projectName);
            if (index >= 0)
            {
                cases[index] = cases[index] with { Ended = DateTimeOffset.UtcNow };
            }
        }
    }

    /// <summary>Ctrl+C or SIGTERM: stop waiting on nodes; teardown follows in <see cref="DisposeAsync"/>.</summary>
    public void Cancel() => cancellation.Cancel();

    public async ValueTask DisposeAsync()
    {
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
        // The cancellation source is not disposed: after Ctrl+C, BenchmarkDotNet's thread may still read its token.
    }

    /// <summary>"Build=cln:v26.06.6, Concurrency=1" → "Build-cln-v26-06-6-Concurrency-1".</summary>
    public static string CaseFolder(string caseKey) =>
        System.Text.RegularExpressions.Regex.Replace(caseKey, "[^A-Za-z0-9]+", "-").Trim('-');
}
