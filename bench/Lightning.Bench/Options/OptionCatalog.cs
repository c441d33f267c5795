using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;
using static Lightning.Bench.Options.OptionValues;
using OptionDeclaration = Lightning.Bench.Options.OptionDeclaration<Lightning.Bench.Options.HarnessOptions>;

namespace Lightning.Bench.Options;

/// <summary>
/// Every option of the harness, declared once, in the order --help and docs/options.md list them: the parser, --help
/// and the options table of the docs are all made from this list. Rules between options stay in <see cref="OptionParser"/>.
/// </summary>
internal static class OptionCatalog
{
    private static readonly HarnessOptions Defaults = new();

    public static IReadOnlyList<OptionDeclaration> All { get; } =
    [
        Switch(
            "--list",
            o => o with { List = true },
            "list scenarios and their parameters",
            new(
                "",
                "list the scenarios and their parameters (`--concurrency`, `--carols`, `--alices`) with their defaults"
            )
        ),
        Sweep(
            "--concurrency",
            $"payments each payer starts at once per invocation, one case each (1 to {ScenarioCatalog.MaxConcurrency}; default: see --list)",
            new(
                "per scenario (see `--list`)",
                $"payments each payer starts at once per invocation; one case per value (1–{ScenarioCatalog.MaxConcurrency}; {ScenarioCatalog.HtlcLimit} HTLCs can be in flight in each direction of a channel, and payments beyond wait or fail, each counted)"
            )
        ),
        Sweep(
            "--carols",
            $"AlicePaysBobViaCarols: Carols between Alice and Bob (default {Joined(ScenarioCatalog.Carols.Default)})",
            new(Code(Joined(ScenarioCatalog.Carols.Default)), "AlicePaysBobViaCarols: Carols between Alice and Bob")
        ),
        Sweep(
            "--alices",
            $"AlicesPayBob: number of Alices (default {Joined(ScenarioCatalog.Alices.Default)})",
            new(Code(Joined(ScenarioCatalog.Alices.Default)), "AlicesPayBob: number of Alices")
        ),
        Sweep(
            "--peers",
            $"HubRoutes: the hub's peers, half paying the other half through it (even; default {Joined(ScenarioCatalog.Peers.Default)})",
            new(
                Code(Joined(ScenarioCatalog.Peers.Default)),
                "HubRoutes: the hub's peers, each with `--channels-per-peer` channels to it; half of them (alice-1 … alice-N) pay the other half (bob-1 … bob-N) through it, alice-i paying bob-i (an even number)"
            )
        ),
        Sweep(
            "--channels-per-peer",
            $"HubRoutes: channels between the hub and each peer (default {Joined(ScenarioCatalog.ChannelsPerPeer.Default)}), opened in rounds",
            new(
                Code(Joined(ScenarioCatalog.ChannelsPerPeer.Default)),
                "HubRoutes: channels between the hub and each of its peers (1–10), a case parameter like `--peers`: `--peers 20 --channels-per-peer 5` is a hub with 100 channels; the k-th channel of every peer is opened in round k (one funding transaction a round, a block between rounds), see [Large nodes](large-nodes.md#a-routing-hub)"
            )
        ),
        Sweep(
            "--history",
            $"LargeNode, HubRoutes: rows of past activity carol (the hub) is given before the measured\nwindow (default LargeNode {Joined(ScenarioCatalog.LargeNodeHistory.Default)}, HubRoutes 0)",
            new(
                $"LargeNode {Code(Joined(ScenarioCatalog.LargeNodeHistory.Default))}, HubRoutes `0`",
                "LargeNode: rows of past activity carol is given, then restarted, before the measured window (Core Lightning: channel moves by default, copied from its own, as its `tests/benchmark.py::test_generate_coinmoves` does; `--history-of` for others); HubRoutes: the same for the hub (moves, payments or forwards); see [Large nodes](large-nodes.md)"
            )
        ),
        Valued(
            "--history-of",
            "WHAT",
            (o, a) => o with { HistoryOf = OneOf(a.Name, a.Value(), NodeKinds.HistoryKinds.All) },
            "LargeNode: what the history is: moves (carol's channel moves, default), invoices\n(bob's paid invoices: the payee's), payments (carol's past payments) or forwards\n(carol's past forwards; alice then pays bob through carol)",
            new(
                Code(NodeKinds.HistoryKinds.Moves),
                "LargeNode: what `--history` rows are: `moves` (carol's channel moves, Core Lightning v25.09 on, which its bookkeeper digests: PR 8677's), `invoices` (paid invoices of bob, carol's payee: issue 1506's), `payments` (carol's past payments, each with its HTLC and channel moves; on LND, each with its HTLC attempts and route hops: on its own bbolt files from v0.18, on PostgreSQL from v0.21) or `forwards` (carol's past forwards, each with its two HTLCs and channel moves; on LND, its forwarding log's events, on its own bbolt files from v0.18; the workload's payments are then alice's to bob through carol); see [Large nodes](large-nodes.md#payments-and-forwards)"
            )
        ),
        Valued(
            "--snapshots",
            "DIR|off",
            (o, a) =>
                o with
                {
                    SnapshotDirectory = NonEmpty(a.Name, a.Value()) is var value && value == "off" ? null : value,
                },
            "where a history's snapshots are kept (default ~/.cache/lightning-bench/snapshots);\noff: every topology's history is written afresh",
            new(
                "`~/.cache/lightning-bench/snapshots`",
                "where a history's rows are kept once written (one SQLite file per build image, history and size, keyed by the image's content id) and copied from into the next topologies' nodes of that build; `off` writes every topology's history afresh; see [Large nodes](large-nodes.md#snapshots)"
            )
        ),
        Switch(
            "--clean-snapshots",
            o => o with { CleanSnapshots = true },
            "remove the kept snapshots (of --snapshots DIR) and say how much they took",
            new(
                "",
                "remove the snapshots kept in the `--snapshots` folder, say how many and how much disk they took, and exit"
            )
        ),
        Valued(
            "--graph",
            "PATH",
            (o, a) => o with { GraphPath = NonEmpty(a.Name, a.Value()) },
            "MainnetGraph: the mainnet graph the payer is given (a GOSSMAP_COMPRESSv1 snapshot:\nCore Lightning's tests/data/gossip-store-2026-02-03.compressed; its -node-map.xz\nbeside it names the nodes)",
            new(
                "",
                "MainnetGraph: the public graph the payer is given in its gossip store before the measured window, a `GOSSMAP_COMPRESSv1` snapshot (Core Lightning's `tests/data/gossip-store-2026-02-03.compressed`: 17,324 nodes, 50,808 channels); its node map (`NAME-node-map.xz`) beside it, if there, names the destinations and must match (see [The mainnet graph](mainnet-graph.md))"
            )
        ),
        Valued(
            "--graph-node",
            "INDEX",
            (o, a) => o with { GraphNode = Int(a.Name, a.Value(), 0, int.MaxValue) },
            $"with --graph: the snapshot's node that is the payer's peer (carol) in the graph\n(default {Graph.RunGraph.DefaultMappedIndex}, as Core Lightning's test_real_data)",
            new(
                Code(Graph.RunGraph.DefaultMappedIndex.ToString(System.Globalization.CultureInfo.InvariantCulture)),
                "with `--graph`: the snapshot's node index that becomes the payer's real peer (carol), so routes into the graph leave through a real channel (Core Lightning's `tests/test_askrene.py::test_real_data` maps 2134, BLUEIRON)"
            )
        ),
        Valued(
            "--graph-store",
            "harness|upstream",
            (o, a) => o with { GraphStore = Graph.GossipStoreForms.Parse(a.Name, a.Value()) },
            "with --graph: how the graph is written into the payer's gossip store: harness (HTLC\nmaxima as the capacity in msat) or upstream (as gossmap-compress decompress writes it)",
            new(
                "harness",
                "with `--graph`: how the graph's records are written into the payer's gossip store: `harness` (each HTLC maximum the snapshot calls \"the capacity\" written as the capacity in msat, every record dying) or `upstream`, byte for byte what Core Lightning's `gossmap-compress decompress` writes (the capacity's satoshi figure as msat, 1/1000 of it, so most channels carry at most about a thousandth of their capacity; the data its tests and its maintainers' figures use); the manifest and the page say which (see [The mainnet graph](mainnet-graph.md#the-graph-as-upstream-writes-it))"
            )
            {
                Syntax = "`--graph-store harness\\|upstream`",
            }
        ),
        Sweep(
            "--graph-percent",
            $"MainnetGraph: the share (%) of the graph's channels the payer is given (default {Joined(ScenarioCatalog.GraphPercent.Default)})",
            new(
                Code(Joined(ScenarioCatalog.GraphPercent.Default)),
                "MainnetGraph: the share (%) of the snapshot's channels the payer is given, taken around the mapped node by a seeded breadth-first search; one case per value (e.g. `10,25,50,100` for how pathfinding grows with the graph)"
            )
        ),
        Valued(
            "--workload",
            "LIST",
            (o, a) => o with { Workloads = WorkloadList(a.Name, a.Value()) },
            $"what each invocation does, one case each: {string.Join(", ", Workloads.WorkloadCatalog.All.Select(w => w.Name))}\n(default {Workloads.WorkloadCatalog.Default.Name}; see --list)",
            new(
                Code(Workloads.WorkloadCatalog.Default.Name),
                $"what each invocation does, one case per value: {string.Join("; ", Workloads.WorkloadCatalog.All.Select(w => $"`{w.Name}`: {w.Description}"))} (see [Scenarios](scenarios.md#workloads))"
            )
        ),
        Switch(
            "--pregenerate-invoices",
            o => o with { PregenerateInvoices = true },
            "create every invoice during setup and measure payments only (default: invoice + pay)",
            new(
                "off",
                "create all invoices during setup and measure the payments alone (the `Invoices` column says which mode ran)"
            )
        ),
        Switch(
            "--back-to-back",
            o => o with { BackToBack = true },
            "start each invocation as soon as the last one ends, as a plain loop does\n(default: wait until the nodes fall quiet, at most 1 s, outside the timing)",
            new(
                "off",
                "start each invocation as soon as the last one ended, as a plain loop does (default: wait, outside the timing, until the nodes have fallen quiet after the last payment's commitments, at most 1 s)"
            )
        ),
        Switch(
            "--swarm",
            o => o with { Swarm = true },
            "run the topologies as stacks on the Docker Swarm this engine manages (a pair's\ntopologies on one host), with an agent per host relaying spans, costs and RPC",
            new(
                "off",
                "run each topology as a stack on the Docker Swarm this engine manages (`docker swarm init` makes a one-host swarm): an agent per host relays the nodes' spans, cgroup costs and JSON-RPC; the host of every topology is recorded (see [Swarm](swarm.md))"
            )
        ),
        Valued(
            "--side-by-side",
            "N",
            (o, a) => o with { SideBySide = Int(a.Name, a.Value(), 1, 64) },
            "with --swarm: measure N shares of the topology pairs at once, one process each,\neach share on a host (default: one per host of the swarm; more than the hosts\nshare them), then judge every pair together",
            new(
                "one per host",
                "with `--swarm`: split the topology pairs into `N` shares measured at once, each by its own harness process on one host (the hosts in turn), then judge all pairs together, paired within each host (see [Swarm](swarm.md#pairs-side-by-side)); more shares than hosts put several on a host, which then share its cores"
            )
        ),
        Valued(
            "--swarm-host",
            "NAME",
            (o, a) => o with { SwarmHost = NonEmpty(a.Name, a.Value()) },
            "with --swarm: run on this host of the swarm only (its agent, every topology)",
            new(
                "",
                "with `--swarm`: run on this host of the swarm only (one agent, every topology there); what each side-by-side share runs with"
            )
        ),
        Valued(
            "--place",
            "NODE=VALUE",
            (o, a) => o with { Placements = Placement(a.Name, a.Value(), o.Placements) },
            "with --swarm: run NODE on a host labelled lnbench.placement=VALUE, apart from the\nrest of its topology (repeat for more nodes); the time between hosts is then\npart of what is measured",
            new(
                "",
                "with `--swarm`: run `NODE` (e.g. `bob`, `carol-2`) on a host labelled `lnbench.placement=VALUE` (`docker node update --label-add lnbench.placement=VALUE HOST`), apart from the rest of its topology, for topologies larger than one host; repeat for more nodes; the labelled hosts are taken in turn by topology pair, and leave the pairs' hosts unless no other is left; the time between hosts is then part of what is measured (see [Swarm](swarm.md#a-topology-across-hosts))"
            )
        ),
        Valued(
            "--topology-range",
            "FIRST-LAST",
            (o, a) => o with { TopologyRange = Range(a.Name, a.Value()) },
            "run only these topology indices of every case (a share of the pairs; default\n1-N of --topologies)",
            new(
                "`1-N`",
                "run only topology indices `FIRST` to `LAST` of every case, in the same seeded plan (a side-by-side share of the pairs)"
            )
        ),
        Valued(
            "--pairing",
            "MODE",
            (o, a) => o with { Pairing = Pairing(a.Name, a.Value()) },
            "how the arms of a pair are measured: alternate (default: the builds' topologies\nof a pair are up at once and their invocations alternate) or sequential (one\ntopology after the other); timed runs with more than one build or trace mode",
            new(
                HarnessOptions.Alternate,
                "how the arms of a pair (builds, trace modes) are measured: `alternate` brings the arms' topologies of a pair up together and alternates their invocations (each arm's measured invocations per topology are then `--iterations`, half of them during the other arm's BenchmarkDotNet case), so drift of the machine over seconds cancels within the pair; `sequential` measures one topology after the other (see [Comparing builds](comparing-builds.md)); `--instructions`, `--soak` and `--profile` are always sequential"
            )
        ),
        Valued(
            "--iterations",
            "N",
            (o, a) => o with { Iterations = Int(a.Name, a.Value(), 1, 1000) },
            $"measured invocations per case (default {Defaults.Iterations})",
            new(Code(Defaults.Iterations), "measured and warmup invocations per topology")
        ),
        Valued(
            "--warmups",
            "N",
            (o, a) => o with { Warmups = Int(a.Name, a.Value(), 0, 100) },
            $"warmup invocations per case (default {Defaults.Warmups})",
            new(Code(Defaults.Warmups), "") { JoinsPrevious = true }
        ),
        Valued(
            "--topologies",
            "K",
            (o, a) => o with { Topologies = Int(a.Name, a.Value(), 1, 100) },
            $"fresh topologies per build and case, the unit every comparison replicates\n(default {HarnessOptions.DefaultTopologies}); cases run interleaved in a balanced, shuffled order",
            new(
                Code(HarnessOptions.DefaultTopologies),
                "fresh topologies per build and case: the unit of replication of every comparison; cases run interleaved (see [Comparing builds](comparing-builds.md))"
            )
        ),
        Valued(
            "--max-time",
            "DURATION",
            (o, a) => o with { MaxTime = Duration(a.Name, a.Value(), "10m, 90s, 2h, 1h30m") },
            "with --build: keep adding topology pairs (to the cases still open, which share\nthe time) until every build's mean time and payments/s verdict is slower, faster\nor same, or this time (10m, 1h) is spent;\nintervals become confidence sequences (valid when looked at after every pair);\n--topologies is then the first round's pairs (default 4); later rounds measure\nthe iterations per topology the run's own spread asks for, per Concurrency,\nunless --iterations is given",
            new(
                "",
                "with `--build`: keep adding topology pairs, each round to the cases (Concurrency values) with a verdict still open whose turn it is by the time they took (open cases share the time, not the pairs), until every build's mean time and payments/s verdict is `slower`, `faster` or `same`, or this much time (`10m`, `1h`) is spent; intervals are then confidence sequences, valid when looked at after every pair (see [Comparing builds](comparing-builds.md)); `--topologies` is the first round's pairs (default 4); later rounds measure, per Concurrency, the iterations per topology that the run's own variance components make the most precise per minute, unless `--iterations` is given"
            )
        ),
        Valued(
            "--seed",
            "N",
            (o, a) => o with { Seed = Int(a.Name, a.Value(), 0, int.MaxValue) },
            "seed of that order and of the bootstrap (default: random; kept in manifest.json)",
            new(
                "random",
                "seed of the interleaved order and of the bootstrap (kept in `manifest.json`; `--replay` reuses it)"
            )
        ),
        Valued(
            "--threshold",
            "PCT",
            (o, a) => o with { ThresholdPercent = Percent(a.Name, a.Value()) },
            $"the smallest difference that matters (default {Defaults.ThresholdPercent:0.#} %): within it a\ncomparison says same",
            new(
                Code($"{Defaults.ThresholdPercent:0.#}"),
                "the smallest difference that matters: a ratio whose interval lies within ± this is `same`"
            )
        ),
        Valued(
            "--fail-on",
            "LIST",
            (o, a) => o with { FailOn = FailOnList(a.Name, a.Value()) },
            "with --build: exit 3 (not 1, the harness failing) when a primary verdict (a build's\nmean time or operations/s) is one of LIST: slower, faster, changed (either),\nunknown; every run writes its verdicts to verdicts.json and verdicts.md",
            new(
                "",
                "with `--build`: exit 3 (1 is the harness failing) when a primary verdict (each build's mean time and operations/s against the baseline, the ones `--max-time` waits for) is one of `LIST`: `slower`, `faster`, `changed` (either) or `unknown` (still open, or `no ratio`); a candidate whose operations all fail is `slower`; a gate for CI (see [CI](ci.md))"
            )
        ),
        Valued(
            "--decide-on",
            "LIST",
            (o, a) => o with { DecideOn = MetricList(a.Name, a.Value()) },
            "with --max-time: the metrics whose build verdicts the rounds wait for, as\ncomparison.md names them (default: mean time and operations/s; e.g. storage/payment)",
            new(
                "mean time, operations/s",
                "with `--max-time`: the metrics whose verdicts (each build's against the baseline) the rounds add pairs for until decided, as `comparison.md` names them (e.g. `storage/payment`, `CPU/attempt`); a bisection's steps wait for its `--metric`"
            )
        ),
        Valued(
            "--amount-msat",
            "N",
            (o, a) => o with { AmountMsat = Long(a.Name, a.Value(), 1, 10_000_000_000) },
            $"amount of each payment (default {Defaults.AmountMsat})",
            new(Code(Defaults.AmountMsat), "amount of each payment")
        ),
        Valued(
            "--cln-image",
            "IMAGE",
            (o, a) => o with { ClnImage = Image(a.Name, a.Value()) },
            $"Core Lightning image for every node (default {HarnessOptions.DefaultClnImage})",
            new(Code(HarnessOptions.DefaultClnImage), "Core Lightning image of every node")
        ),
        Valued(
            "--build",
            "NAME=[KIND=]IMAGE[,NODE=[KIND=]IMAGE...]",
            (o, a) => o with { BuildList = [.. o.BuildList, Build(a.Name, a.Value(), o.BuildList)] },
            "a build to compare (repeat the option); the first is the baseline of every verdict;\nNODE=IMAGE runs that node on another image (e.g. carol-1=mycln:dev); KIND is the\nnode implementation, cln (Core Lightning) or lnd, recognised from the image if not given",
            new(
                "",
                "a build to compare, repeatable; the first is the baseline; `NODE=IMAGE` puts one node on another image; `KIND` is the node implementation, `cln` (Core Lightning) or `lnd` (see [LND](lnd.md)), recognised from the image when not given"
            )
            {
                Syntax = "`--build NAME=[KIND=]IMAGE[,NODE=[KIND=]IMAGE…]`",
            }
        ),
        Valued(
            "--db",
            "[BUILD:]DATABASE",
            (o, a) => o with { DatabaseList = [.. o.DatabaseList, Database(a.Name, a.Value())] },
            "where BUILD's nodes (every build's, without BUILD:) keep their databases: sqlite3\n(default) or postgres (a PostgreSQL server per topology, --postgres-image);\npart of the build's identity, e.g. --build lite=IMG --build pg=IMG --db pg:postgres",
            new(
                "`sqlite3`",
                "where `BUILD`'s nodes (without `BUILD:`, every build's) keep their databases: `sqlite3` (each node's own file) or `postgres` (a PostgreSQL server container of each topology, `--postgres-image`, started, labelled and removed with it; one database per node); part of the build's identity, so `--build lite=IMG --build pg=IMG --db pg:postgres` compares the two on one image (Core Lightning and LND; see [Large nodes](large-nodes.md#postgresql))"
            )
        ),
        Valued(
            "--postgres-image",
            "IMAGE",
            (o, a) => o with { PostgresImage = Image(a.Name, a.Value()) },
            $"with --db postgres: the PostgreSQL server's image (default {HarnessOptions.DefaultPostgresImage})",
            new(
                Code(HarnessOptions.DefaultPostgresImage),
                "with `--db postgres`: the PostgreSQL server's image (the official image's interface: `POSTGRES_USER`, `POSTGRES_PASSWORD`, `POSTGRES_DB`, `psql` inside)"
            )
        ),
        Valued(
            "--node-option",
            "[BUILD:]OPTION",
            (o, a) => o with { NodeOptionList = [.. o.NodeOptionList, NodeOption(a.Name, a.RawValue())] },
            "start BUILD's nodes (every build's, without BUILD:) with OPTION after the harness's own\n(repeat for more), e.g. --node-option nagle:--dev-keep-nagle; part of the build's\nidentity: one image with and without an option is two builds",
            new(
                "",
                "start `BUILD`'s nodes (without `BUILD:`, every build's) with `OPTION` after the harness's own, e.g. `--node-option nagle:--dev-keep-nagle` or `--node-option --askrene-max-threads=1`; repeat for more; the options are part of the build's identity (tables, manifest, page, history); options the harness owns (network, folders, sockets, ports, the RPC file, logs, bitcoind) are refused, and one the image's node does not know stops the run before any container"
            )
            {
                Syntax = "`--node-option [BUILD:]OPTION`",
            }
        ),
        Valued(
            "--source",
            "DIR",
            (o, a) => o with { SourceDirectory = NonEmpty(a.Name, a.Value()) },
            "a git checkout of the implementation: a build given as git:REF (a tag, branch or\ncommit: --build mine=git:HEAD) is made into an image from its commit by\n--image-command before the run, once (the image is kept: --built-images)",
            new(
                "",
                "a git checkout of the implementation: a build given as `git:REF` (`--build mine=git:v26.06.6`; a tag, branch or commit, `git:` always meaning a ref) is resolved in it to its commit and made into the image `lnbench-built/<checkout>:<commit12>` (`<checkout>`: its folder's name) by `--image-command` before any topology, unless that image is there already (see [Builds from source](comparing-builds.md#builds-from-source))"
            )
        ),
        Valued(
            "--image-command",
            "CMD",
            (o, a) => o with { ImageCommand = NonEmpty(a.Name, a.Value()) },
            "what makes a commit into an image, run by /bin/sh -c in a clean tree of it:\n{commit}, {source} and {image} are put in shell-quoted (and $LNBENCH_COMMIT,\n$LNBENCH_SOURCE, $LNBENCH_IMAGE set); exit 0 leaving {image}, or 125 for a\ncommit that cannot be built (default: the file .lnbench-image-command of --source)",
            new(
                "`.lnbench-image-command` in `--source`",
                "what makes a commit into an image: a shell command run by `/bin/sh -c` in a clean tree of the commit (a `git worktree` the harness makes and removes), `{commit}`, `{source}` and `{image}` put in shell-quoted and `LNBENCH_COMMIT`, `LNBENCH_SOURCE`, `LNBENCH_IMAGE` set; it must exit 0 and leave the image `{image}` in the engine, or exit 125 for a commit that cannot be built; its output is kept in the run's `builds/` (the contract: [Builds from source](comparing-builds.md#the-image-command))"
            )
        ),
        Switch(
            "--built-images",
            o => o with { ListBuilt = true },
            "list the images made from source refs (the cache), with their commits",
            new(
                "",
                "list the images made from source refs (the cache: `lnbench-built/*`) with commit, subject, checkout, size and when each was made, and exit"
            )
        ),
        Switch(
            "--prune-built",
            o => o with { PruneBuilt = true },
            "remove the images made from source refs (with --source, only that checkout's)\nand say how much they took",
            new(
                "",
                "remove the images made from source refs (with `--source DIR`, only that checkout's), say how many and how much they took, and exit"
            )
        ),
        Valued(
            "--bitcoind-image",
            "IMAGE",
            (o, a) => o with { BitcoindImage = Image(a.Name, a.Value()) },
            $"bitcoind image (default {HarnessOptions.DefaultBitcoindImage})",
            new(Code(HarnessOptions.DefaultBitcoindImage), "bitcoind image")
        ),
        Switch(
            "--no-pull",
            o => o with { Pull = false },
            "fail instead of pulling images that are not present locally",
            new("", "fail instead of pulling images that are not present")
        ),
        Switch(
            "--with-compose",
            o => o with { WithCompose = true },
            "start topologies with docker compose (v2, else docker-compose v1) instead of the\nEngine API (the generated docker-compose.yml is the same either way)",
            new(
                "off",
                "bring topologies up and down with `docker compose` (v2, else `docker-compose` v1) instead of the Engine API (the generated `docker-compose.yml` is the same either way)"
            )
        ),
        Valued(
            "--traces",
            "LIST",
            (o, a) => o with { Traces = TraceModeList(a.Name, a.Value()) },
            "on, off, unread or a list: collect the nodes' spans (default on); on,off runs every\ncase both ways, interleaved, and compares each mode with off; unread: nodes trace\nto a socket nobody reads (their cost alone)",
            new(
                Code(TraceModes.On),
                "collect spans; a list runs every case in each mode, in that order (`unread`: nodes trace to a socket nobody reads) to measure the overhead; with `off` in the list each mode is compared with `off` like builds are, and the table gets a `vs traces off` column (one topology pair's throughput ratio)"
            )
            {
                Syntax = "`--traces on,off,unread`",
            }
        ),
        Switch(
            "--no-traces",
            o => o with { Traces = [TraceModes.Off] },
            "same as --traces off",
            new("", "") { JoinsPrevious = true }
        ),
        Switch(
            "--trace-check",
            o => o with { TraceCheck = true },
            "nodes also write Core Lightning's trace file, to count spans lost on the way",
            new(
                "off",
                "nodes also write Core Lightning's own trace file (`CLN_DEV_TRACE_FILE`), so the report counts spans lost on the way"
            )
        ),
        Valued(
            "--results",
            "DIR",
            (o, a) => o with { ResultsRoot = NonEmpty(a.Name, a.Value()) },
            $"where each run's folder goes (default {Defaults.ResultsRoot})",
            new(Code(Defaults.ResultsRoot), "where run folders go")
        ) with
        {
            KeptByReplay = true,
        },
        Valued(
            "--work-dir",
            "DIR",
            (o, a) => o with { WorkRoot = NonEmpty(a.Name, a.Value()) },
            $"short folder for node data and sockets (default {Defaults.WorkRoot})",
            new(
                Code(Defaults.WorkRoot),
                "short folder for node data and sockets (Unix socket paths are limited to 107 bytes)"
            )
            {
                JoinsPrevious = true,
            }
        ),
        Valued(
            "--setup-timeout",
            "SECONDS",
            (o, a) => o with { StepTimeout = TimeSpan.FromSeconds(Int(a.Name, a.Value(), 5, 3600)) },
            $"limit for each setup wait (default {Defaults.StepTimeout.TotalSeconds:0})",
            new(Code($"{Defaults.StepTimeout.TotalSeconds:0}"), "limit of each setup wait")
        ),
        Valued(
            "--operation-timeout",
            "SECONDS",
            (o, a) => o with { OperationTimeout = TimeSpan.FromSeconds(Int(a.Name, a.Value(), 1, 86400)) },
            $"give up a measured operation no node answers in this long, counted failed with that reason (default {Defaults.OperationTimeout.TotalSeconds:0})",
            new(
                Code($"{Defaults.OperationTimeout.TotalSeconds:0}"),
                "limit of each measured operation: a payment never answered is a failed one, and the run goes on"
            )
        ),
        Switch(
            "--no-zip",
            o => o with { Zip = false },
            "do not write results/RUN.zip",
            new("", "do not write the run's zip")
        ) with
        {
            KeptByReplay = true,
        },
        Switch(
            "--plain",
            o => o with { Plain = true },
            $"print progress as plain lines with BenchmarkDotNet's log, as with output to a pipe\nor CI, even in a terminal, which otherwise shows a live display ({Progress.ProgressModeChoice.PlainVariable}=1 too)",
            new(
                "live in a terminal",
                $"print the plain progress lines and BenchmarkDotNet's log on the console even in a terminal, as they are printed when the output is not a terminal, under CI (`CI` set) or with `TERM=dumb`; without it a terminal shows a live display of the run (cases, topologies, pairs, budget, ETA) and BenchmarkDotNet's log goes to the run folder only; `{Progress.ProgressModeChoice.PlainVariable}=1` does the same (see [What a run produces](outputs.md#the-console))"
            )
        ) with
        {
            KeptByReplay = true,
        },
        Switch(
            "--allow-privileged-fragments",
            o => o with { AllowPrivilegedFragments = true },
            "let docker-fragments/ give containers privileged, cap_add or security_opt",
            new(
                "off",
                "let `docker-fragments/` give containers `privileged`, `cap_add` or `security_opt` (refused otherwise, as bad input)"
            )
        ),
        Valued(
            "--soak",
            "DURATION|N",
            (o, a) => o with { Soak = SoakLimit.Parse(a.Name, a.Value()) },
            "drive one case's payments continuously on one topology for a duration (90s, 30m,\n2h, 1h30m) or N payments; writes soak.csv, soak-nodes.csv, soak-report.md (trends\nwith verdicts) and plots; traces off; Ctrl+C ends it and keeps everything",
            new(
                "",
                "drive one case continuously on one topology for a duration (`90s`, `30m`, `2h`, `1h30m`) or N payments, with trends and budgets (see [Soak runs](soak.md))"
            )
        ),
        Valued(
            "--probe",
            "[BUILD:]MS",
            (o, a) => Probe(o, a.Name, a.Value()),
            "ask every Lightning node a cheap RPC (its sync state) every MS milliseconds alongside\nthe workload and report how fast it answered (p50, p99, max, longest stall per\nnode) and, with --build, the slowest answer per invocation as a metric with verdicts;\nBUILD: only that build's nodes (what the probe costs, compared)",
            new(
                "off",
                "ask every Lightning node a cheap RPC (Core Lightning's `help` for one command, LND's `GetInfo`) every MS milliseconds (`100` or `100ms`), one call at a time, alongside the workload: `probes.csv` (every call), a table per case and node (p50, p99, max, longest stall) and, with `--build`, `RPC wait` (each invocation's slowest answer) compared like the other metrics; `BUILD:MS` probes only that build's nodes, so `--build plain=IMG --build probed=IMG --probe probed:100` measures what the probe costs (see [How it works](how-it-works.md#responsiveness))"
            )
        ),
        Valued(
            "--sample-interval",
            "S",
            (o, a) => o with { SampleInterval = TimeSpan.FromSeconds(Int(a.Name, a.Value(), 1, 3600)) },
            $"seconds between a soak's samples (default {Defaults.SampleInterval.TotalSeconds:0})",
            new(Code($"{Defaults.SampleInterval.TotalSeconds:0}"), "seconds between a soak's samples")
        ),
        Valued(
            "--budget",
            "LIST",
            (o, a) => o with { Budgets = [.. o.Budgets, .. SoakBudget.ParseList(a.Name, a.Value())] },
            "limits a soak must keep, e.g. 'p95<250ms,rss<400MB,cpu-per-payment<20ms'\n(figures: p50, p95, p99, rss, cpu-per-payment, pps, failures); a broken one exits 1",
            new("", "limits a soak must keep, e.g. `'p95<250ms,rss<400MB,cpu-per-payment<20ms'`; a broken one exits 1")
        ),
        Switch(
            "--profile",
            o => o with { ProfileMode = ProfileMode.Required },
            "sample every node's CPU stacks (perf, its container's cgroup) in every other measured\niteration, or in a soak in windows along it; writes profiles/ (folded stacks,\nflame graphs, top functions; with --build, differential flame graphs; in a soak,\neach function's trend) and what sampling cost; stops before any container if\nthis machine cannot profile",
            new(
                "off",
                "sample every Lightning node's CPU stacks with `perf` in every other measured iteration (in a soak, in windows along it) and write flame graphs, top functions and, with `--build`, differential flame graphs (see [Profiles](profiles.md)); stops before any container if the machine cannot profile"
            )
        ),
        Switch(
            "--profile-if-available",
            o => o with { ProfileMode = ProfileMode.IfAvailable },
            "--profile, but run on without profiles when the machine cannot",
            new("", "`--profile`, but a machine that cannot profile runs on without profiles (and says why)")
        ),
        Valued(
            "--profile-frequency",
            "HZ",
            (o, a) => o with { ProfileFrequencyHz = Int(a.Name, a.Value(), 1, 4999) },
            $"samples per second per CPU (default {Defaults.ProfileFrequencyHz})",
            new(Code(Defaults.ProfileFrequencyHz), "stack samples per second per CPU")
        ),
        Valued(
            "--profile-stacks",
            "MODE",
            (o, a) => o with { ProfileStacks = ProfileStacks(a.Name, a.Value()) },
            $"{ProfileSettings.Dwarf} (any build, the default) or {ProfileSettings.FramePointers} (builds with frame pointers; cheaper)",
            new(
                Code(Defaults.ProfileStacks),
                "unwind stacks from DWARF (any build; 16 KB of stack copied per sample) or from frame pointers (builds with `-fno-omit-frame-pointer`; cheaper)"
            )
            {
                Syntax = $"`--profile-stacks {ProfileSettings.Dwarf}\\|{ProfileSettings.FramePointers}`",
            }
        ),
        Valued(
            "--profile-every",
            "DURATION",
            (o, a) => o with { ProfileEvery = Duration(a.Name, a.Value(), "30s, 5m, 1h") },
            "in a soak: start a 10 s profile window this often (default a twentieth of the\nsoak, at least 1m); the report gives each function's trend per payment",
            new("a twentieth of the soak (≥ 1m)", "with `--soak`: how often a 10 s profile window starts")
        ),
        Switch(
            "--instructions",
            o => o with { Instructions = true },
            "run every Lightning node under Valgrind (callgrind, brought from the host) and\ncount the instructions each node and process executes per payment, idle\nsubtracted, down to the function; builds are compared on them (times taken under\nValgrind are not shown); Concurrency=1, 40 payments per topology and 5 topologies\nunless --concurrency/--iterations/--topologies say otherwise; stops before any\ncontainer if this machine cannot",
            new(
                "off",
                "run every Lightning node under Valgrind (callgrind) and compare builds on the instructions each node, process and function executes per payment, idle subtracted (see [Instructions per payment](instructions.md)); times taken under Valgrind are not shown; Concurrency=1, 40 payments per topology and 5 topologies unless `--concurrency`/`--iterations`/`--topologies` are given; stops before any container if the machine cannot"
            )
        ),
        Valued(
            "--instructions-threshold",
            "PCT",
            (o, a) => o with { InstructionsThresholdPercent = Percent(a.Name, a.Value()) },
            $"with --instructions: the smallest difference of instructions per payment that\nmatters (default {Defaults.InstructionsThresholdPercent:0.##} %, from this metric's A/A spread)",
            new(
                Code($"{Defaults.InstructionsThresholdPercent:0.##}"),
                "with `--instructions`: the smallest difference of instructions per payment that matters (chosen from the metric's A/A spread)"
            )
        ),
        Valued(
            "--replay",
            "RUN.zip",
            (o, a) => o with { Replay = NonEmpty(a.Name, a.Value()) },
            "run again the scenario, parameters and images of an earlier run (zip or folder)",
            new("", "run again the scenario, parameters and images of an earlier run (zip or folder)")
        ) with
        {
            KeptByReplay = true,
        },
        Valued(
            "--compare",
            "A.zip B.zip",
            (o, a) =>
                o with
                {
                    Compare =
                    [
                        NonEmpty(a.Name, a.Value()),
                        a.Next("--compare needs two runs: --compare results/A.zip results/B.zip"),
                    ],
                },
            "judge the cases two runs share over their topologies (nothing is benchmarked)",
            new("", "judge the cases two runs share with the same method (unpaired: runs cannot be paired in time)")
        ),
        Valued(
            "--publish",
            "SITE RUN...",
            (o, a) => o with { Publish = [NonEmpty(a.Name, a.Value()), .. a.Following()] },
            "add runs (zips or folders) to a static site in SITE: each run's page, and per case,\nbuild and metric a chart over the runs with change points (serve SITE with any web\nserver, e.g. python3 -m http.server)",
            new(
                "",
                "add runs (zips or folders) to a static site: an index of runs, each run's page, and per machine, case, build and metric a chart over the runs with each run's interval and the change points marked and listed (see [What a run produces](outputs.md#a-history-of-runs))"
            )
            {
                Syntax = "`--publish SITE RUN…`",
            }
        ),
        Valued(
            "--order",
            "date|version",
            (o, a) => o with { PublishOrder = OptionValues.HistoryOrder(a.Name, a.Value()) },
            "with --publish: order each chart's runs by date (default) or by the version of the\nbuild's node (a history of releases: v24.05, v24.08.2, …), labelled with it",
            new(
                "date",
                "with `--publish`: order each chart's runs by the date they started, or by the version their build's node reported (a history of releases, whatever order they ran in), each point labelled with it"
            )
            {
                Syntax = "`--order date\\|version`",
            }
        ),
        Switch(
            "--include-busy",
            o => o with { IncludeBusy = true },
            "with --publish: count runs measured on a busy machine in the change points too\n(they are drawn apart either way)",
            new(
                "off",
                "with `--publish`: count runs measured on a busy machine (other work took more than the threshold of the CPU while they measured) in the change points; they are drawn apart, hollow and off the line, either way (see [What a run produces](outputs.md#the-machine-while-a-run-measured))"
            )
        ),
        Valued(
            "--report",
            "RUN_FOLDER",
            (o, a) => o with { Report = NonEmpty(a.Name, a.Value()) },
            "write report.html (the run as one self-contained page) for a run's folder, e.g. one\nfrom before pages existed (every run writes its own)",
            new(
                "",
                "write `report.html`, the run as one self-contained page, for an earlier run's folder (every run writes its own; see [What a run produces](outputs.md))"
            )
        ),
        Valued(
            "--spans",
            "RUN.zip",
            (o, a) => o with { Spans = NonEmpty(a.Name, a.Value()) },
            "write back a run's spans from its zip (or folder), which keeps them once in\nspans.lnspans: each case's spans.jsonl, zipkin.json and spans.csv (nothing is benchmarked)",
            new(
                "",
                "write back a run's spans from its zip (or folder), which keeps every span once in `spans.lnspans`: each case's `spans.jsonl`, its `zipkin.json`, and the run's `zipkin.json` and `spans.csv`, as the run wrote them (see [What a run produces](outputs.md#spans-in-the-zip))"
            )
        ),
        Valued(
            "--out",
            "DIR",
            (o, a) => o with { SpansOut = NonEmpty(a.Name, a.Value()) },
            "with --spans: where they go (default: the run's folder; for RUN.zip, RUN/ beside it);\nfiles already there are never overwritten",
            new("the run's folder", "") { JoinsPrevious = true }
        ),
        Valued(
            "--metric",
            "NAME",
            (o, a) => o with { BisectMetric = NonEmpty(a.Name, a.Value()) },
            "bisect: the metric that stepped, as comparison.md names it (mean time,\npayments/s, CPU/payment, storage/payment, storage/attempt, ...)",
            new(
                "",
                "`bisect`: the metric whose step is looked for, as `comparison.md` names it (`mean time`, `payments/s`, `CPU/payment`, `storage/payment`, `storage/attempt`, …; see [Bisection](comparing-builds.md#bisection-which-commit))"
            )
        ),
        Valued(
            "--case",
            "CASE",
            (o, a) => o with { BisectCase = NonEmpty(a.Name, a.Value()) },
            "bisect: the case whose verdict decides, as comparison.md names it\n(e.g. 'Concurrency=1'; needed when a step has more than one)",
            new(
                "the step's one case",
                "`bisect`: the case whose verdict decides, as `comparison.md` names it (`Concurrency=1`, `Concurrency=10, Workload=fail-at-payee`); needed when a step measures more than one"
            )
        ),
        Valued(
            "--resume",
            "DIR",
            (o, a) => o with { BisectResume = NonEmpty(a.Name, a.Value()) },
            "bisect --resume DIR: go on with an interrupted bisection from its folder\n(steps done are neither built nor measured again)",
            new(
                "",
                "`bisect --resume DIR`: go on with a bisection that was stopped, from its folder (`bisect.json`): the steps it finished are neither built nor measured again"
            )
        ),
        Switch(
            "--help",
            o => o with { Help = true },
            "this text",
            new("", "print every option, as in this table") { Syntax = "`--help`, `-h`" }
        ) with
        {
            Aliases = ["-h"],
        },
    ];

    public static OptionDeclaration? Find(string name) => All.FirstOrDefault(o => o.Answers(name));

    private static OptionDeclaration Switch(
        string name,
        Func<HarnessOptions, HarnessOptions> apply,
        string help,
        OptionDocs docs
    ) => new(name, null, (options, _) => apply(options), help, docs);

    /// <summary>--probe [BUILD:]MS.</summary>
    private static HarnessOptions Probe(HarnessOptions o, string name, string value)
    {
        var (build, ms) = ForBuild(value);
        return o with
        {
            ProbeInterval = TimeSpan.FromMilliseconds(
                Int(name, ms.EndsWith("ms", StringComparison.Ordinal) ? ms[..^2] : ms, 10, 60_000)
            ),
            ProbeBuild = build,
        };
    }

    private static OptionDeclaration Valued(
        string name,
        string valueName,
        Func<HarnessOptions, OptionArguments, HarnessOptions> apply,
        string help,
        OptionDocs docs
    ) => new(name, valueName, apply, help, docs);

    /// <summary>An option that sweeps a scenario's [Params] parameter; its range is the parameter's.</summary>
    private static OptionDeclaration Sweep(string name, string help, OptionDocs docs)
    {
        var parameter = ScenarioCatalog.AllParameters.Single(p => p.Option == name);
        return new(
            name,
            "LIST",
            (options, arguments) =>
            {
                var values = IntList(
                    arguments.Name,
                    arguments.Value(),
                    parameter.Min,
                    parameter.Max,
                    parameter.RangeReason
                );
                if (parameter.Even && values.FirstOrDefault(v => v % 2 == 1) is var odd and > 0)
                {
                    throw new UsageException(
                        $"{arguments.Name} {odd} is odd: give an even number (half the peers pay, half are paid)"
                    );
                }
                return options with
                {
                    Sweeps = new Dictionary<string, IReadOnlyList<int>>(options.Sweeps) { [parameter.Name] = values },
                };
            },
            help,
            docs
        );
    }

    private static string Joined(IReadOnlyList<int> values) => string.Join(',', values);

    private static string Code(object value) => $"`{value}`";
}
