using BenchmarkDotNet.Attributes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// BenchmarkDotNet's view of a scenario: the parameters every scenario has (Build, Concurrency, Traces), and the three
/// calls BenchmarkDotNet makes per case, handed to <c>CaseLifecycle</c> (setup → start, each invocation → pay,
/// cleanup → end). A scenario says which topology it builds, its own parameters, and how many payments one invocation makes.
/// The scenarios and their parameter types (BuildName, TraceMode) are the only public types: BenchmarkDotNet runs them;
/// everything else is internal.
/// </summary>
public abstract class ScenarioBenchmark
{
    private IRunningCase? lifecycle;

    /// <summary>The run, through the one boundary BenchmarkDotNet's reflection leaves (see <see cref="BenchmarkHost"/>).</summary>
    private protected static IBenchmarkRun Run => BenchmarkHost.Run;

    /// <summary>The node build (--build NAME=IMAGE); the first one is the baseline of every build comparison.</summary>
    [ParamsSource(nameof(BuildValues))]
    public BuildName Build { get; set; } = new(0, "");

    /// <summary>Payments each payer starts at once in one invocation.</summary>
    [ParamsSource(nameof(ConcurrencyValues))]
    public int Concurrency { get; set; }

    /// <summary>Which fresh topology of the case (1..--topologies, or a budgeted run's round): the unit of replication of every comparison.</summary>
    [ParamsSource(nameof(TopologyValues))]
    public int Topology { get; set; }

    /// <summary>Whether the nodes send their spans to the harness: a parameter, so one run can measure the tracing overhead.</summary>
    [ParamsSource(nameof(TracesValues))]
    public TraceMode Traces { get; set; } = new(0, TraceModes.On);

    /// <summary>What each invocation does (--workload; default the scenario's own): part of the case's identity.</summary>
    [ParamsSource(nameof(WorkloadValues))]
    public WorkloadName Workload { get; set; } = new(0, Workloads.WorkloadCatalog.Default.Name);

    public static IEnumerable<WorkloadName> WorkloadValues =>
        Run.WorkloadNames.Select((w, i) => new WorkloadName(i, w));

    public static IEnumerable<BuildName> BuildValues => Run.Builds.Select((b, i) => new BuildName(i, b.Name));

    public static IEnumerable<int> ConcurrencyValues => Run.Sweep(nameof(Concurrency));

    public static IEnumerable<int> TopologyValues =>
        Enumerable.Range(Run.TopologyRange.First, Run.TopologyRange.Last - Run.TopologyRange.First + 1);

    public static IEnumerable<TraceMode> TracesValues => Run.TraceModes.Select((t, i) => new TraceMode(i, t));

    /// <summary>The scenario's own parameters (name → value), part of the case's identity.</summary>
    protected virtual IReadOnlyDictionary<string, object> ScenarioParameters => new Dictionary<string, object>();

    /// <summary>Payments one invocation makes: Concurrency per payer.</summary>
    protected virtual int PaymentsPerInvocation => Concurrency;

    private protected abstract TopologySpec BuildTopology(BuildSpec build, string bitcoindImage);

    // BenchmarkDotNet's in-process toolchain waits for the Task these return (since 0.15) before it goes on. It calls
    // them without arguments, so they take no token: the lifecycle stops on the run's cancellation.
    [GlobalSetup]
    public async Task GlobalSetupAsync() => lifecycle = await Run.StartCaseAsync(Definition(), DefinitionOf);

    /// <summary>Another arm of this case's cell and topology (its Build and Traces from <paramref name="parameters"/>).</summary>
    private CaseDefinition DefinitionOf(IReadOnlyDictionary<string, string> parameters)
    {
        var other = (ScenarioBenchmark)MemberwiseClone();
        other.lifecycle = null;
        other.Build = BuildValues.First(b => b.Name == parameters[nameof(Build)]);
        other.Traces = TracesValues.First(t => t.Name == parameters[nameof(Traces)]);
        return other.Definition();
    }

    [GlobalCleanup]
    public async Task GlobalCleanupAsync()
    {
        if (lifecycle is not null)
        {
            await lifecycle.CleanupAsync();
        }
    }

    // Outside each invocation's timing (InvocationCount=1, so one iteration is one invocation): reading the nodes'
    // memory and storage writes takes about 1 ms a node on cgroup v1, too long to sit inside a measured payment batch.
    // With --profile, sampling is also switched on and off here, so perf's acknowledgements are not timed either.
    [IterationSetup]
    public async Task IterationSetupAsync()
    {
        if (lifecycle is not null)
        {
            await lifecycle.BeforeInvocationAsync();
        }
    }

    [IterationCleanup]
    public async Task IterationCleanupAsync()
    {
        if (lifecycle is not null)
        {
            await lifecycle.AfterInvocationAsync();
        }
    }

    /// <summary>One invocation of the case's workload.</summary>
    protected Task InvokeAsync() => lifecycle!.InvokeAsync();

    /// <summary>
    /// The case a soak runs, outside BenchmarkDotNet: the first value of every parameter (the option parser lets a soak
    /// have one), the first build, topology 1, traces off.
    /// </summary>
    internal static CaseDefinition SoakCase(Type benchmarkType)
    {
        var benchmark = (ScenarioBenchmark)Activator.CreateInstance(benchmarkType)!;
        foreach (var property in benchmarkType.GetProperties())
        {
            if (
                property.GetCustomAttributes(typeof(ParamsSourceAttribute), true).FirstOrDefault()
                is ParamsSourceAttribute source
            )
            {
                var values = (System.Collections.IEnumerable)
                    benchmarkType
                        .GetProperty(
                            source.Name,
                            System.Reflection.BindingFlags.Public
                                | System.Reflection.BindingFlags.Static
                                | System.Reflection.BindingFlags.FlattenHierarchy
                        )!
                        .GetValue(null)!;
                property.SetValue(benchmark, values.Cast<object>().First());
            }
        }
        benchmark.Traces = new TraceMode(0, TraceModes.Off);
        return benchmark.Definition();
    }

    private CaseDefinition Definition()
    {
        var parameters = new Dictionary<string, object>(ScenarioParameters)
        {
            [nameof(Build)] = Build.Name,
            [nameof(Concurrency)] = Concurrency,
            [nameof(Topology)] = Topology,
            [nameof(Traces)] = Traces.Name,
            [nameof(Workload)] = Workload.Name,
        };
        var id = CaseKey.IdOf(parameters);
        var workload = Workloads.WorkloadCatalog.Get(Workload.Name);
        var topology = BuildTopology(Run.Builds[Build.Index], Run.BitcoindImage);
        var shaped = workload.Shape(topology);
        return new CaseDefinition(
            id,
            id.Texts,
            shaped.Placed(Run.Placements),
            // Concurrency is per payment flow: a workload that adds flows (both ways) makes that many more operations.
            PaymentsPerInvocation * shaped.Flows.Count / topology.Flows.Count,
            Traces.Name,
            Run.MeasuredFor(Concurrency),
            workload
        );
    }
}
