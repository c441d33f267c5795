using System.Reflection;
using System.Text.Json;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Results;

/// <summary>manifest.json: everything needed to read a run and to replay it (./run.sh --replay run.zip).</summary>
internal sealed record Manifest
{
    public const string FileName = "manifest.json";
    public const string CurrentFormat = "lnbench-run/1";

    public string Format { get; init; } = CurrentFormat;

    public required string RunId { get; init; }

    public required string HarnessVersion { get; init; }

    /// <summary>The git commit the harness was built from, when the build could ask git.</summary>
    public string? HarnessCommit { get; init; }

    /// <summary>The arguments as given (replay parses them again).</summary>
    public required IReadOnlyList<string> Arguments { get; init; }

    public required string CommandLine { get; init; }

    public required string Scenario { get; init; }

    /// <summary>Every swept parameter's values, defaults included.</summary>
    public required IReadOnlyDictionary<string, IReadOnlyList<int>> Parameters { get; init; }

    public required int Iterations { get; init; }

    public required int Warmups { get; init; }

    /// <summary>--back-to-back: timed invocations started without waiting for the nodes to fall quiet (absent in runs from before the wait, which had BenchmarkDotNet's forced collections between invocations instead).</summary>
    public bool? BackToBack { get; init; }

    /// <summary>Fresh topologies per build and case.</summary>
    public int Topologies { get; init; } = 1;

    /// <summary>The seed of the case order and of the bootstrap; a replay uses it again.</summary>
    public int? Seed { get; init; }

    /// <summary>Case keys in the order they ran.</summary>
    public IReadOnlyList<string> Order { get; init; } = [];

    public double ThresholdPercent { get; init; } = 2;

    public required long AmountMsat { get; init; }

    /// <summary>With --graph: the snapshot, the mapped node, and per share its seeded channels' count and route queries.</summary>
    public GraphRecord? Graph { get; init; }

    /// <summary>With --history: what the rows are, the sizes, and how they were made.</summary>
    public HistoryRecord? History { get; init; }

    public required IReadOnlyList<string> Traces { get; init; }

    public required string Invoices { get; init; }

    public required IReadOnlyList<BuildRecord> Builds { get; init; }

    public required string BitcoindImage { get; init; }

    public required IReadOnlyList<ImageRecord> Images { get; init; }

    public required IReadOnlyList<CaseRecord> Cases { get; init; }

    public required MachineRecord Machine { get; init; }

    public required DateTimeOffset Started { get; init; }

    public required DateTimeOffset Ended { get; init; }

    /// <summary>True when the run stopped early (interrupted, a node died, a case failed): the results are what it had.</summary>
    public required bool Partial { get; init; }

    /// <summary>The signal that stopped the run ("SIGHUP"), or null: a run stopped by one is <see cref="Partial"/> too.</summary>
    public string? Interrupted { get; init; }

    public string? ReplayOf { get; init; }

    /// <summary>--profile: how the nodes were sampled and where each case's profiles are (null without).</summary>
    public ProfilingRecord? Profiling { get; init; }

    /// <summary>How an --instructions run counted (absent in timed runs).</summary>
    public InstructionsRecord? Instructions { get; init; }

    /// <summary>How the arms' topologies were paired (the unit the comparisons replicate), in words.</summary>
    public string? Pairing { get; init; }

    /// <summary>A budgeted run (--max-time): its rounds, why it stopped and its primary verdicts (absent otherwise).</summary>
    public BudgetReport? Budget { get; init; }

    /// <summary>--swarm: the hosts used and the pairs measured per minute (each topology's host is in its case record).</summary>
    public SwarmRecord? Swarm { get; init; }

    /// <summary>What the run's figures mean beyond its cases (platform, Valgrind, perf, back to back); absent before it was recorded.</summary>
    public MeasurementConditions? Conditions { get; init; }

    /// <summary>The machine while the run measured (see <see cref="Results.MachineLoad"/>); absent before it was recorded.</summary>
    public MachineLoad? MachineLoad { get; init; }

    public void Write(string directory) =>
        AtomicFile.WriteAllText(Path.Combine(directory, FileName), JsonSerializer.Serialize(this, RunSummary.Json));

    public static Manifest Read(string json) =>
        JsonSerializer.Deserialize<Manifest>(json, RunSummary.Json)
        ?? throw new InvalidDataException("manifest.json is empty");

    /// <summary>(version, commit) from the assembly's informational version "1.0.0+commit".</summary>
    public static (string Version, string? Commit) HarnessBuild()
    {
        var informational =
            typeof(Manifest).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
            ?? "0.0.0";
        var plus = informational.IndexOf('+');
        return plus < 0 ? (informational, null) : (informational[..plus], informational[(plus + 1)..]);
    }
}

/// <summary>The run's mainnet graph: what file, which node is the payer's peer, and what each share gave and asked (seeded).</summary>
/// <summary>
/// A node's history (--history, --history-of): what a row is (per node kind), the sizes asked, and how the rows were
/// made (<see cref="HistoryRecord.Made"/>).
/// </summary>
internal sealed record HistoryRecord(string Of, IReadOnlyList<int> Sizes, IReadOnlyList<string> Rows)
{
    public const string MadeText =
        "written by the harness into the node's stopped sqlite3 database as copies of what the build under test itself recorded of the setup's payments, "
        + "or copied from the snapshot those rows were kept as (one per build image, history and size; see snapshots), with this topology's channels and node ids; "
        + "the node is then started again (restart rpc, restart channels, restart pay) and asked by its own listing for the last row written before anything is measured";

    public string Made => MadeText;

    /// <summary>Where snapshots were kept (null: --snapshots off).</summary>
    public string? SnapshotDirectory { get; init; }

    /// <summary>Each topology's use of a snapshot: made, used or remade (and why), its key, file and size.</summary>
    public IReadOnlyList<SnapshotUse> Snapshots { get; init; } = [];
}

/// <summary>One topology's use of a snapshot: made (none was usable), used, or remade (why the one there was not used).</summary>
internal sealed record SnapshotUse(string Node, string Key, string File, string How, long Bytes, string? Why = null);

internal sealed record GraphRecord(
    string Path,
    string Sha256,
    int Nodes,
    int Channels,
    int MappedIndex,
    string? NodeMap,
    int Seed,
    string? Store,
    IReadOnlyList<GraphShareRecord> Shares
);

/// <summary>One share (GraphPercent) of the graph: its channels (count, and SHA-256 of their indexes as 4-byte little-endian integers) and its queries in the order they are asked.</summary>
/// <param name="Queries">Destination index, amount in sat, and whether it is a top node ("top") or of the sample ("sample").</param>
internal sealed record GraphShareRecord(
    int Percent,
    int Channels,
    string ChannelsSha256,
    IReadOnlyList<string> Queries
);
