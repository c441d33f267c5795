using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Options;

/// <summary>Everything the user chose on the command line, validated by <see cref="OptionParser"/>.</summary>
internal sealed record HarnessOptions
{
    /// <summary>--cln-image's default: Core Lightning's own.</summary>
    public const string DefaultClnImage = "elementsproject/lightningd:v26.06.6";

    /// <summary>Bitcoin Core's release binaries, checked against the guix signatures when the image is built (see README).</summary>
    public const string DefaultBitcoindImage = "bitcoin/bitcoin:30.2";

    public string Scenario { get; init; } = ScenarioCatalog.Default.Name;

    /// <summary>Whether a case of the run gives a node a history (a --history size above 0, its scenario's default included).</summary>
    public bool GivesHistory => HistorySizes.Any(rows => rows > 0);

    /// <summary>The history sizes of the run's cases: its scenario's --history values, none when it takes no history.</summary>
    public IReadOnlyList<int> HistorySizes =>
        ScenarioCatalog
            .Find(Scenario)
            ?.Parameters.FirstOrDefault(p => p.Name == nameof(Scenarios.LargeNode.HistoryRows))
            ?.ValuesFrom(Sweeps)
        ?? [];

    /// <summary>--graph: the mainnet graph snapshot MainnetGraph's payer is given; null: none.</summary>
    public string? GraphPath { get; init; }

    /// <summary>--graph-node: the snapshot's index mapped onto the payer's peer; null: <see cref="Graph.RunGraph.DefaultMappedIndex"/>.</summary>
    public int? GraphNode { get; init; }

    /// <summary>--graph-store: how the graph's records are written into the payer's store (the harness's form unless asked for upstream's).</summary>
    public Graph.GossipStoreForm GraphStore { get; init; }

    /// <summary>--history-of: what LargeNode's history is (<see cref="NodeKinds.HistoryKinds"/>).</summary>
    public string HistoryOf { get; init; } = NodeKinds.HistoryKinds.Moves;

    public bool List { get; init; }

    public bool Help { get; init; }

    /// <summary>Sweeps given on the command line, by parameter name (Concurrency, CarolsCount, AliceCount); others take the scenario's default.</summary>
    public IReadOnlyDictionary<string, IReadOnlyList<int>> Sweeps { get; init; } =
        new Dictionary<string, IReadOnlyList<int>>();

    /// <summary>Create every invoice during setup and measure payments only.</summary>
    public bool PregenerateInvoices { get; init; }

    /// <summary>What each invocation does (--workload), one case each, by name (see Workloads.WorkloadCatalog); empty: the scenario's own.</summary>
    public IReadOnlyList<string> Workloads { get; init; } = [];

    public int Iterations { get; init; } = 10;

    /// <summary>Start each timed invocation as soon as the last one ended, without waiting for the nodes to fall quiet.</summary>
    public bool BackToBack { get; init; }

    /// <summary>--swarm: the topologies run as stacks on the swarm this engine manages, reached through an agent per host (docs/swarm.md).</summary>
    public bool Swarm { get; init; }

    /// <summary>--side-by-side N: with --swarm, N worker processes at once, each with its share of the topology pairs on its host (docs/swarm.md); null: one per host.</summary>
    public int? SideBySide { get; init; }

    /// <summary>--swarm-host NAME: with --swarm, only this host of the swarm (an agent there, every topology there); a side-by-side worker's.</summary>
    public string? SwarmHost { get; init; }

    /// <summary>--place NODE=VALUE: with --swarm, these nodes run on a host labelled lnbench.placement=VALUE, apart from the rest of their topology.</summary>
    public IReadOnlyDictionary<string, string> Placements { get; init; } = new Dictionary<string, string>();

    /// <summary>--topology-range FIRST-LAST: only these topology indices of every case (a side-by-side worker's share); null: 1 to --topologies.</summary>
    public (int First, int Last)? TopologyRange { get; init; }

    /// <summary>
    /// --pairing: how the arms of a pair (builds, trace modes) are measured. <see cref="Alternate"/> (the default): the
    /// arms' topologies of one cell and topology index are live at once and their invocations alternate, so every arm
    /// sees the same moments of the machine; <see cref="Sequential"/>: one arm's topology after the other's.
    /// </summary>
    public string Pairing { get; init; } = Alternate;

    public const string Alternate = "alternate";

    public const string Sequential = "sequential";

    /// <summary>
    /// Whether this run alternates its arms' invocations: --pairing alternate, more than one arm (builds × trace modes),
    /// and a timed run (not --instructions, --soak or --profile, which measure one topology at a time).
    /// </summary>
    public bool AlternatesArms =>
        Pairing == Alternate
        && Builds.Count * Traces.Count > 1
        && !Instructions
        && Soak is null
        && ProfileMode == ProfileMode.Off;

    /// <summary>--iterations was given: every case measures that many, also in every round of a budgeted run.</summary>
    public bool IterationsGiven { get; init; }

    public int Warmups { get; init; } = 1;

    /// <summary>Fresh topologies per build and case: the unit of replication of every comparison.</summary>
    public int Topologies { get; init; } = DefaultTopologies;

    public const int DefaultTopologies = 8;

    /// <summary>
    /// With --instructions: the payments a topology's window aims at (its default --iterations). Under Valgrind a payment costs about half a second at Concurrency=1
    /// and a second at 10, against about 45 s for a topology's setup and idle window, and most of the spread is from
    /// payment to payment (the signer's nonce grinding, commitments batched or not), so a topology's window is made
    /// long rather than topologies many.
    /// </summary>
    public const int InstructionWindowPayments = 40;

    /// <summary>
    /// With --instructions: the topology pairs a comparison makes when --topologies is not given. Five: with four pairs (t = 3.18) a
    /// 1 % change on one node was `slower` in 6 of 10 runs and `unknown` in the others against the 0.5 % threshold,
    /// because one build's topologies still differ by about 0.14 % on a node (lightningd's SQLite allocations come in
    /// two modes); a fifth pair (t = 2.78 / √5 against 3.18 / √4) narrows the interval by a fifth for a quarter more time.
    /// </summary>
    public const int InstructionDefaultTopologies = 5;

    /// <summary>--publish SITE RUN…: the site's folder, then the runs (folders or zips) to add to it; empty otherwise.</summary>
    public IReadOnlyList<string> Publish { get; init; } = [];

    /// <summary>--order: how --publish orders each chart's runs (by date unless asked for versions).</summary>
    public HistoryOrder PublishOrder { get; init; } = HistoryOrder.Date;

    /// <summary>--include-busy: with --publish, runs measured on a busy machine count in the change points too.</summary>
    public bool IncludeBusy { get; init; }

    /// <summary>--report: write report.html for this earlier run's folder, nothing else.</summary>
    public string? Report { get; init; }

    /// <summary>--spans: write back the span files and views of this run (zip or folder) from its span store, nothing else.</summary>
    public string? Spans { get; init; }

    /// <summary>--out: where --spans writes; null: the run's folder (for a zip, the folder it unzips to).</summary>
    public string? SpansOut { get; init; }

    /// <summary>--max-time: add topology pairs until every build verdict is decided or this much time is spent; null: a fixed --topologies.</summary>
    public TimeSpan? MaxTime { get; init; }

    /// <summary>Seeds the interleaved case order and the bootstrap (recorded in the manifest); null: chosen at random.</summary>
    public int? Seed { get; init; }

    /// <summary>The smallest difference that matters, in percent: a ratio whose interval lies within ± this is "same".</summary>
    public double ThresholdPercent { get; init; } = 2;

    public string ClnImage { get; init; } = DefaultClnImage;

    /// <summary>Builds given with --build; without any, the one build is --cln-image.</summary>
    public IReadOnlyList<BuildSpec> BuildList { get; init; } = [];

    /// <summary>--node-option [BUILD:]OPTION, in command-line order: each option for its build, or (no BUILD) for every build.</summary>
    public IReadOnlyList<(string? Build, string Option)> NodeOptionList { get; init; } = [];

    /// <summary>--db [BUILD:]DATABASE, in command-line order: the last for a build (or, without BUILD, for every build) wins.</summary>
    public IReadOnlyList<(string? Build, string Database)> DatabaseList { get; init; } = [];

    /// <summary>--postgres-image: the PostgreSQL server of a topology whose build keeps its databases there.</summary>
    public string PostgresImage { get; init; } = DefaultPostgresImage;

    /// <summary>The official PostgreSQL image.</summary>
    public const string DefaultPostgresImage = "postgres:17";

    /// <summary>The builds a run benchmarks, each with its node options and database; the first is the baseline of the Ratio column.</summary>
    public IReadOnlyList<BuildSpec> Builds =>
        (BuildList.Count > 0 ? BuildList : [BuildSpec.FromImage(ClnImage)])
            .Select(b =>
                NodeOptionList.Count == 0
                    ? b
                    : b with
                    {
                        NodeOptions = NodeOptionList
                            .Where(o => o.Build is null || o.Build == b.Name)
                            .Select(o => o.Option)
                            .ToList(),
                    }
            )
            .Select(b =>
                DatabaseList.LastOrDefault(d => d.Build is null || d.Build == b.Name) is { Database: { } db }
                    ? b with
                    {
                        Database = db,
                    }
                    : b
            )
            .ToList();

    /// <summary>Whether a build keeps its nodes' databases on PostgreSQL.</summary>
    public bool UsesPostgres => Builds.Any(b => b.Database == Databases.Postgres);

    public string BitcoindImage { get; init; } = DefaultBitcoindImage;

    public long AmountMsat { get; init; } = 1_000_000;

    public string ResultsRoot { get; init; } = "results";

    /// <summary>Short host folder for node folders and sockets (Unix socket paths are limited to 107 bytes).</summary>
    public string WorkRoot { get; init; } = "/tmp/lnb";

    /// <summary>--snapshots: where a history's snapshots are kept; null (off): every topology's history is written afresh.</summary>
    public string? SnapshotDirectory { get; init; } = DefaultSnapshotDirectory;

    /// <summary>~/.cache/lightning-bench/snapshots (or under $XDG_CACHE_HOME).</summary>
    public static string DefaultSnapshotDirectory =>
        Path.Combine(
            Environment.GetEnvironmentVariable("XDG_CACHE_HOME") is { Length: > 0 } cache
                ? cache
                : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache"),
            "lightning-bench",
            "snapshots"
        );

    /// <summary>--clean-snapshots: remove the kept snapshots and say what they took.</summary>
    public bool CleanSnapshots { get; init; }

    public TimeSpan StepTimeout { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>
    /// --operation-timeout: how long one measured operation may go unanswered before it is given up and counted failed
    /// with that reason (a payment a node never answers, its HTLC held by a link that failed).
    /// </summary>
    public TimeSpan OperationTimeout { get; init; } = Lightning.Bench.Workloads.OperationDeadline.DefaultLimit;

    public bool Pull { get; init; } = true;

    /// <summary>Bring topologies up and down with `docker compose` (or v1 `docker-compose`) instead of the Engine API.</summary>
    public bool WithCompose { get; init; }

    /// <summary>
    /// Trace modes, one case each: "on" (nodes send spans, the harness collects them), "off" (tracing disabled in the
    /// nodes), "unread" (nodes send spans to a socket nobody reads: the nodes' cost without the harness's).
    /// </summary>
    public IReadOnlyList<string> Traces { get; init; } = [TraceModes.On];

    /// <summary>Also make every node write Core Lightning's own trace file (CLN_DEV_TRACE_FILE), to count spans lost on the way.</summary>
    public bool TraceCheck { get; init; }

    /// <summary>Let compose fragments give containers privileges (privileged, cap_add, security_opt); refused otherwise.</summary>
    public bool AllowPrivilegedFragments { get; init; }

    /// <summary>Write results/RUN.zip at the end (--no-zip to skip).</summary>
    public bool Zip { get; init; } = true;

    /// <summary>Plain progress lines and BenchmarkDotNet's log on the console even in a terminal (--plain; see <see cref="Progress.ProgressModeChoice"/>).</summary>
    public bool Plain { get; init; }

    /// <summary>A run's zip or folder to run again (--replay).</summary>
    public string? Replay { get; init; }

    /// <summary>Set when this run replays another: that run's id.</summary>
    public string? ReplayOf { get; init; }

    /// <summary>Two runs' zips or folders to compare (--compare A B); nothing is benchmarked.</summary>
    public IReadOnlyList<string> Compare { get; init; } = [];

    /// <summary>--soak: drive one case's payments continuously on one topology for this long (null: benchmark as usual).</summary>
    public SoakLimit? Soak { get; init; }

    /// <summary>How often a soak samples its figures (one row of soak.csv per node per sample).</summary>
    public TimeSpan SampleInterval { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>--probe: how often each node is asked a cheap RPC alongside the workload; null: never.</summary>
    public TimeSpan? ProbeInterval { get; init; }

    /// <summary>--probe BUILD:MS: only this build's nodes are probed (the other builds' are not); null: every build's.</summary>
    public string? ProbeBuild { get; init; }

    /// <summary>--budget: limits a soak must keep; a broken one makes the run exit non-zero.</summary>
    public IReadOnlyList<SoakBudget> Budgets { get; init; } = [];

    /// <summary>--instructions: every Lightning node runs under Valgrind (callgrind) and builds are compared on instructions per payment.</summary>
    public bool Instructions { get; init; }

    /// <summary>--instructions-threshold: the smallest difference of instructions per payment that matters.</summary>
    public double InstructionsThresholdPercent { get; init; } =
        Statistics.ComparisonMetric.InstructionsThresholdPercent;

    /// <summary>--profile (stop when the machine cannot profile) or --profile-if-available (run on without profiles).</summary>
    public ProfileMode ProfileMode { get; init; } = ProfileMode.Off;

    /// <summary>--profile-frequency: stack samples per second per CPU.</summary>
    public int ProfileFrequencyHz { get; init; } = ProfileSettings.DefaultFrequencyHz;

    /// <summary>--profile-stacks: dwarf (works without frame pointers) or fp.</summary>
    public string ProfileStacks { get; init; } = ProfileSettings.Dwarf;

    /// <summary>--profile-every: in a soak, how often a profile window starts (null: a twentieth of the soak, at least a minute; 5 min for a count of payments).</summary>
    public TimeSpan? ProfileEvery { get; init; }

    /// <summary>How the nodes are profiled, or null without --profile.</summary>
    public ProfileSettings? Profile =>
        ProfileMode == ProfileMode.Off
            ? null
            : new ProfileSettings(
                ProfileFrequencyHz,
                ProfileStacks,
                ProfileMode == ProfileMode.Required,
                Environment.GetEnvironmentVariable("LNBENCH_PERF") is { Length: > 0 } perf ? perf : "perf"
            );

    /// <summary>--source: the git checkout that builds given as git:REF are made from; null: none.</summary>
    public string? SourceDirectory { get; init; }

    /// <summary>--image-command: what makes a commit into an image (null: the checkout's <c>.lnbench-image-command</c>).</summary>
    public string? ImageCommand { get; init; }

    /// <summary>
    /// The images made from git:REF builds before the run, each with its commit: set when those builds were made (their
    /// images then stand in the builds), never from the command line.
    /// </summary>
    public IReadOnlyList<Results.SourceCommit> Sources { get; init; } = [];

    /// <summary>--built-images: list the images made from source refs, nothing else.</summary>
    public bool ListBuilt { get; init; }

    /// <summary>--prune-built: remove the images made from source refs (with --source, that checkout's), nothing else.</summary>
    public bool PruneBuilt { get; init; }

    /// <summary>--fail-on: verdict words (<see cref="Results.FailOn"/>) that make a run that ended as asked exit 3 when a primary verdict has one.</summary>
    public IReadOnlyList<string> FailOn { get; init; } = [];

    /// <summary>--decide-on: the metrics whose build verdicts a budgeted run waits for; empty: mean time and operations/s.</summary>
    public IReadOnlyList<string> DecideOn { get; init; } = [];

    /// <summary>bisect GOOD BAD …: the refs the step lies between; null: not a bisection.</summary>
    public BisectRefs? Bisect { get; init; }

    /// <summary>--metric: the metric whose step a bisection looks for, as comparison.md names it.</summary>
    public string? BisectMetric { get; init; }

    /// <summary>--case: the case whose verdict a bisection reads (e.g. Concurrency=1); null: the run's one case.</summary>
    public string? BisectCase { get; init; }

    /// <summary>bisect --resume DIR: the folder of a bisection to go on with.</summary>
    public string? BisectResume { get; init; }

    /// <summary>Arguments after `--`, handed to BenchmarkDotNet as they are.</summary>
    public IReadOnlyList<string> BenchmarkDotNetArguments { get; init; } = [];

    /// <summary>The command line as typed, kept with the results.</summary>
    public IReadOnlyList<string> CommandLine { get; init; } = [];
}
