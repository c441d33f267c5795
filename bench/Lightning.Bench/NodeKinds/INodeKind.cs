using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Topology;

namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A Lightning implementation the harness can run: how its container is described and configured, how its version is
/// probed, how to connect to a started node, and which trace source its nodes have. A new implementation is a new
/// folder under NodeKinds/ with one of these and an <see cref="ILightningNode"/>.
/// </summary>
internal interface INodeKind
{
    /// <summary>What --build NAME=KIND=IMAGE calls it (lowercase).</summary>
    string Name { get; }

    /// <summary>The file in docker-fragments/ its containers start from.</summary>
    string FragmentFile { get; }

    /// <summary>
    /// Whether its node gives up when bitcoind is not ready at its start (LND: ZMQ refused), so its container waits for
    /// the harness's word: the file <see cref="ChainReadyFile"/> in its folder, written once bitcoind answers with its chain.
    /// </summary>
    bool WaitsForChain => false;

    /// <summary>The file a <see cref="WaitsForChain"/> kind's container waits for in its folder.</summary>
    const string ChainReadyFile = "lnbench-chain-ready";

    /// <summary>What bitcoind must also do for its nodes (LND: publish blocks and transactions over ZMQ); none by default.</summary>
    IReadOnlyList<string> BitcoindOptions => [];

    /// <summary>
    /// What its nodes offer beyond setup and payments (<see cref="KnownCapabilities"/>): the node calls its node type
    /// implements (<see cref="KnownCapabilities.OfNode"/>) and what the kind can be given or run on. A run refuses, in one
    /// line before any container, a workload or option that needs what a build's kind does not offer.
    /// </summary>
    IReadOnlySet<Capability> Offers { get; }

    /// <summary>
    /// Why one release of the kind lacks <paramref name="capability"/> although the kind offers it (a call that came in a
    /// later release), given the versions the image check read; null when it has it.
    /// </summary>
    string? Lacks(Capability capability, IReadOnlyDictionary<string, string> versions) => null;

    /// <summary>What one of its payments calls, as tables and plots name it.</summary>
    PaymentCalls PaymentCalls { get; }

    /// <summary>Why a build may not give its nodes <paramref name="option"/> (one the harness owns: its network, folders, sockets, ports, RPC file, logs), or null.</summary>
    string? RefuseOption(string option) => null;

    /// <summary>
    /// What this kind says of one image before any container starts, given the versions the image check read and the
    /// options its build gives its nodes: why it cannot run (a release too old, an option its node does not know), and
    /// what it will run without (one line each). <paramref name="run"/> runs a program of the image and returns its output.
    /// </summary>
    Task<ImageCheck> CheckImageAsync(
        IReadOnlyDictionary<string, string> versions,
        IReadOnlyList<string> options,
        Func<IReadOnlyList<string>, CancellationToken, Task<(int ExitCode, string Output)>> run,
        CancellationToken ct = default
    ) => Task.FromResult(ImageCheck.Fine);

    /// <summary>
    /// Why this kind's release (its image's <paramref name="versions"/>) cannot run beside the run's bitcoind, whose
    /// <c>bitcoind -version</c> said <paramref name="bitcoindVersion"/>, in one line; null when it can.
    /// </summary>
    string? RefuseBitcoind(IReadOnlyDictionary<string, string> versions, string bitcoindVersion) => null;

    /// <summary>Programs whose versions the image check records (program → version flag); each must be in the image.</summary>
    IReadOnlyDictionary<string, string> VersionProbes { get; }

    /// <summary>
    /// The node's compose service: its fragment plus the command line and environment this run needs. Image, user,
    /// labels and the node folder's mount are added by the generator.
    /// </summary>
    ComposeService DescribeService(ComposeService fragment, NodeServiceSettings settings);

    /// <summary>Writes the node's configuration (with the run's bitcoind credentials) into its folder before it starts.</summary>
    void Configure(string nodeDirectory, RunCredentials credentials);

    /// <summary>The node's own log file, on the host.</summary>
    string LogFile(string nodeDirectory);

    /// <summary>
    /// Looks once whether the node answers; returns the handle, or null with what it saw while it is not ready. A call
    /// that fails throws <see cref="NodeCallException"/>, as the handle's do.
    /// </summary>
    Task<(ILightningNode? Node, string Observed)> TryConnectAsync(
        NodeContainer container,
        CancellationToken ct = default
    );

    /// <summary>The node's data files on the host (its database), whose size a soak follows; none by default.</summary>
    IReadOnlyList<string> DataFiles(string nodeDirectory) => [];

    /// <summary>How its nodes run under Valgrind for --instructions; null when the kind cannot be counted (offers no <see cref="KnownCapabilities.Instructions"/>).</summary>
    InstructionCounting? Instructions => null;

    /// <summary>How a node of the kind is given a history of <paramref name="what"/> (<see cref="HistoryKinds"/>) before the measured window; null: it cannot be (refused in one line).</summary>
    INodeHistory? HistoryOf(string what) => null;

    /// <summary>How a node of the kind is given the run's mainnet graph (--graph); null: it cannot be (refused in one line).</summary>
    INodeGraph? Graph => null;

    /// <summary>How its spans read and join to payments, and its nodes' own record of them; null when its nodes send none to the harness.</summary>
    ITraceSource? Traces { get; }
}
