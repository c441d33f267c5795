using Lightning.Bench.Topology;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// What a scenario's benchmark class gets from the run it is part of: the values of its parameters, what each case's
/// topology is made of, and a running case for BenchmarkDotNet's calls. The run implements it and puts itself in
/// <see cref="BenchmarkHost"/>; the benchmark classes know nothing else of the run.
/// </summary>
internal interface IBenchmarkRun
{
    /// <summary>The builds compared (--build), the baseline first.</summary>
    IReadOnlyList<BuildSpec> Builds { get; }

    /// <summary>The trace modes (--traces), in command-line order.</summary>
    IReadOnlyList<string> TraceModes { get; }

    /// <summary>The workloads of the run's cases: --workload, else the scenario's own.</summary>
    IReadOnlyList<string> WorkloadNames { get; }

    string BitcoindImage { get; }

    /// <summary>What a node's history is (--history-of, <see cref="NodeKinds.HistoryKinds"/>).</summary>
    string HistoryOf { get; }

    /// <summary>--place: nodes that run apart from their topology, by name.</summary>
    IReadOnlyDictionary<string, string> Placements { get; }

    /// <summary>The Topology indices BenchmarkDotNet runs next: all of --topologies, or a budgeted run's round.</summary>
    (int First, int Last) TopologyRange { get; }

    /// <summary>The values of a swept parameter of the run's scenario.</summary>
    IReadOnlyList<int> Sweep(string parameter);

    /// <summary>A topology's measured invocations at <paramref name="concurrency"/>.</summary>
    int MeasuredFor(int concurrency);

    /// <summary>The case started up to its first invocation (with alternating arms, with its group's other arms).</summary>
    /// <param name="definitionOf">A partner arm's definition from its parameters (the case's, with another Build or Traces).</param>
    Task<IRunningCase> StartCaseAsync(
        CaseDefinition definition,
        Func<IReadOnlyDictionary<string, string>, CaseDefinition> definitionOf
    );
}
