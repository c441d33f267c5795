using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Processes;
using Lightning.Bench.Rpc;
using Lightning.Bench.Topology;

namespace Lightning.Bench.NodeKinds.CoreLightning;

/// <summary>Core Lightning (lightningd with its bundled plugins), driven over its JSON-RPC socket, tracing to a datagram socket.</summary>
internal sealed class CoreLightningKind : INodeKind
{
    public const string KindName = "cln";

    /// <summary>docker-fragments/cln.yml.</summary>
    public const string Fragment = "cln.yml";

    /// <summary>Where lightningd puts its RPC socket in the node folder (regtest network).</summary>
    public const string RpcSocketPath = "regtest/lightning-rpc";

    public const string LogFileName = "lightningd.log";

    public string Name => KindName;

    public string FragmentFile => Fragment;

    /// <summary>An invoice on the payee, paid with xpay (the payment plugin since v24.11) on the payer.</summary>
    public PaymentCalls PaymentCalls { get; } = new("invoice", "xpay");

    public IReadOnlyDictionary<string, string> VersionProbes { get; } =
        new Dictionary<string, string> { ["lightningd"] = "--version", ["bitcoin-cli"] = "-version" };

    public ITraceSource Traces { get; } = new CoreLightningTraceSource();

    /// <summary>
    /// As Core Lightning's own test suite runs nodes under Valgrind (contrib/pyln-testing): bitcoin-cli (which bcli
    /// runs for every chain poll), Python and the Rust plugins are not counted; plugin checksums and backtraces are off
    /// (both read memory in ways that are slow or noisy under Valgrind), and subdaemons are not asked their version at
    /// start (one Valgrind start each). Every signature is ground for a low R (bitcoin/signature.c, sign_hash: it signs
    /// again until R is below 2^255, which half of all R are): two attempts per signature on average, and most of
    /// what varies between topologies of one build (hsmd's secp256k1_ecdsa_sign ranged 3.40–4.37 M per payment).
    /// </summary>
    public InstructionCounting Instructions { get; } =
        new(
            [
                "*python*",
                "*bitcoin-cli*",
                "*elements-cli*",
                "*cln-grpc*",
                "*clnrest*",
                "*wss-proxy*",
                "*cln-bip353*",
                "*reckless",
                "*cln-currencyrate*",
            ],
            ["--dev-no-plugin-checksum", "--dev-no-version-checks"],
            new Dictionary<string, string> { ["LIGHTNINGD_DEV_NO_BACKTRACE"] = "1" },
            [new RetryLoop("sign_hash", "secp256k1_ecdsa_sign", 2)],
            // askrene's routing child (v26.04+: plugins/askrene/child/child.c), forked per getroutes.
            ["run_child"]
        );

    InstructionCounting? INodeKind.Instructions => Instructions;

    private static readonly INodeHistory Moves = new CoreLightningHistory();
    private static readonly INodeHistory Invoices = new CoreLightningInvoices();

    INodeHistory? INodeKind.HistoryOf(string what) =>
        what switch
        {
            HistoryKinds.Moves => Moves,
            HistoryKinds.Invoices => Invoices,
            HistoryKinds.Payments => CoreLightningPastPayments.Payments,
            HistoryKinds.Forwards => CoreLightningPastPayments.Forwards,
            _ => null,
        };

    INodeGraph? INodeKind.Graph { get; } = new CoreLightningGraph();

    /// <summary>Every node call (<see cref="CoreLightningNode"/> implements them all), every history, the graph, PostgreSQL, swarms and Valgrind.</summary>
    public IReadOnlySet<Capability> Offers { get; } =
        KnownCapabilities
            .OfNode(typeof(CoreLightningNode))
            .Concat([
                KnownCapabilities.Graph,
                KnownCapabilities.Postgres,
                KnownCapabilities.Swarm,
                KnownCapabilities.Instructions,
            ])
            .Concat(HistoryKinds.All.Select(KnownCapabilities.HistoryOf))
            .ToHashSet();

    /// <summary>Route queries came with xpay (v24.11); each history with the table it grows.</summary>
    string? INodeKind.Lacks(Capability capability, IReadOnlyDictionary<string, string> versions) =>
        capability == KnownCapabilities.RouteQueries ? CoreLightningGraph.RoutesRefusal(versions)
        : HistoryKinds.All.FirstOrDefault(h => KnownCapabilities.HistoryOf(h) == capability) is { } what
            ? ((INodeKind)this).HistoryOf(what)?.Refusal(versions)
        : null;

    ITraceSource? INodeKind.Traces => Traces;

    public ComposeService DescribeService(ComposeService fragment, NodeServiceSettings settings)
    {
        var service = fragment.Clone();
        service.Command ??= [];
        service.Command.AddRange([
            $"--lightning-dir={settings.ContainerDirectory}",
            $"--alias={settings.Name}",
            $"--bitcoin-rpcconnect={settings.BitcoindHost}",
            $"--bitcoin-rpcport={settings.BitcoindRpcPort}",
            $"--addr=0.0.0.0:{settings.Peer.Port}",
            $"--log-file={settings.ContainerDirectory}/{LogFileName}",
            "--log-file=-",
        ]);
        if (settings.ConfigFile is not null)
        {
            service.Command.Add($"--conf={settings.ConfigFile}");
        }
        if (settings.PostgresUrl is { } url)
        {
            // Its database on the topology's PostgreSQL server, which the harness creates once the server answers:
            // lightningd waits for its word (a file in its folder) rather than failing to connect at start.
            service.Command.Add($"--wallet={url}");
            service.Entrypoint =
            [
                "/bin/sh",
                "-c",
                $"until [ -e {settings.ContainerDirectory}/{NodeServiceSettings.DatabaseReadyFile} ]; do sleep 0.05; done; exec lightningd \"$$@\"",
                "lightningd",
            ];
        }
        // The build's own options last (--node-option): what the harness owns was refused before any container.
        service.Command.AddRange(settings.Options);
        if (settings.TraceSocket is not null)
        {
            service.Environment ??= new();
            service.Environment["CLN_TRACE_SOCKET"] = settings.TraceSocket;
        }
        if (settings.DevTraceFile is not null)
        {
            service.Environment ??= new();
            service.Environment["CLN_DEV_TRACE_FILE"] = settings.DevTraceFile;
        }
        return service;
    }

    /// <summary>Options that would take the node from the harness: its network, folders, sockets, ports, RPC file, logs and bitcoind.</summary>
    private static readonly string[] Owned =
    [
        "--network",
        "--mainnet",
        "--testnet",
        "--testnet4",
        "--signet",
        "--regtest",
        "--lightning-dir",
        "--conf",
        "--alias",
        "--bitcoin-rpcconnect",
        "--bitcoin-rpcport",
        "--bitcoin-rpcuser",
        "--bitcoin-rpcpassword",
        "--bitcoin-datadir",
        "--bitcoin-cli",
        "--addr",
        "--bind-addr",
        "--announce-addr",
        "--rpc-file",
        "--rpc-file-mode",
        "--log-file",
        "--pid-file",
        "--daemon",
        "--developer",
        "--wallet",
    ];

    public string? RefuseOption(string option)
    {
        var name = option.Split('=', 2)[0];
        return Owned.Contains(name)
            ? $"{name} is the harness's: it sets the node's network, folders, sockets, ports, RPC file, logs and bitcoind itself (and --developer always)"
            : null;
    }

    /// <summary>The oldest release the harness runs (its setup and payments are tested from here).</summary>
    public static readonly ReleaseVersion Oldest = new(24, 5);

    /// <summary>xpay and askrene's getroutes came with v24.11; before, payments use pay and routes getroute.</summary>
    public static readonly ReleaseVersion Xpay = new(24, 11);

    /// <summary>xpay's xkeysend came with v26.06, which deprecated the keysend plugin's command.</summary>
    public static readonly ReleaseVersion Xkeysend = new(26, 6);

    /// <summary>The datagram trace socket (CLN_TRACE_SOCKET) came with v26.06.</summary>
    public static readonly ReleaseVersion TraceSocket = new(26, 6);

    public async Task<ImageCheck> CheckImageAsync(
        IReadOnlyDictionary<string, string> versions,
        IReadOnlyList<string> options,
        Func<IReadOnlyList<string>, CancellationToken, Task<(int ExitCode, string Output)>> run,
        CancellationToken ct = default
    )
    {
        var text = versions.GetValueOrDefault("lightningd", "");
        var notes = new List<string>();
        if (ReleaseVersion.Parse(text) is { } version)
        {
            if (version < Oldest)
            {
                return new ImageCheck(
                    $"its Core Lightning is {text}, older than {Oldest}, the oldest release this harness runs: choose {Oldest} or newer",
                    []
                );
            }
            if (version < Xpay)
            {
                notes.Add(
                    $"Core Lightning {text} has no xpay or getroutes (from {Xpay}): its payments use pay and routes are found with getroute (the Method column says which)"
                );
            }
            if (version < TraceSocket)
            {
                notes.Add(
                    $"Core Lightning {text} has no trace socket (from {TraceSocket}): its nodes send no spans, so its payments have no steps; times and costs are measured as ever"
                );
            }
        }
        return new ImageCheck(
            await ImageCheck.UnknownOptionsAsync(
                options,
                $"its lightningd ({text})",
                ["lightningd", "--developer", "--help"],
                run,
                ct
            ),
            notes
        );
    }

    public void Configure(string nodeDirectory, RunCredentials credentials) =>
        PrivateFiles.Write(
            Path.Combine(nodeDirectory, "config"),
            $"bitcoin-rpcuser={credentials.User}\nbitcoin-rpcpassword={credentials.Password}\n"
        );

    public string LogFile(string nodeDirectory) => Path.Combine(nodeDirectory, LogFileName);

    /// <summary>The sqlite database and its journal (regtest network).</summary>
    public IReadOnlyList<string> DataFiles(string nodeDirectory) =>
        [
            Path.Combine(nodeDirectory, "regtest", "lightningd.sqlite3"),
            Path.Combine(nodeDirectory, "regtest", "lightningd.sqlite3-journal"),
            Path.Combine(nodeDirectory, "regtest", "lightningd.sqlite3-wal"),
        ];

    public async Task<(ILightningNode? Node, string Observed)> TryConnectAsync(
        NodeContainer container,
        CancellationToken ct = default
    )
    {
        ClnRpcClient rpc;
        if (container.Relay is { } relay)
        {
            try
            {
                // A refusal comes as NodeCallException (INodeRelay): it is not caught here.
                rpc = ClnRpcClient.Over(container.Name, await relay.OpenAsync(container.Name, ct));
            }
            catch (RpcConnectionException e)
            {
                // The node has not made its socket yet (or its host's agent is not up yet): the wait tries again.
                return (null, e.Message);
            }
        }
        else
        {
            var socket = Path.Combine(container.Directory, RpcSocketPath);
            if (!File.Exists(socket))
            {
                return (null, $"{socket} does not exist yet");
            }
            try
            {
                rpc = await ClnRpcClient.ConnectAsync(container.Name, socket, ct);
            }
            catch (RpcConnectionException e)
            {
                throw new NodeCallException(container.Name, "connect", NodeCallFailure.ConnectionLost, e.Message, e);
            }
        }
        try
        {
            var (id, version) = await CoreLightningNode.CallAsync(
                rpc,
                "getinfo",
                null,
                $"lnbench:getinfo#setup-{container.Name}",
                info =>
                    (
                        info.GetProperty("id").GetString()!,
                        info.TryGetProperty("version", out var v) ? v.GetString() ?? "" : ""
                    ),
                ct
            );
            return (new CoreLightningNode(container.Name, container.Peer, rpc, id, version), "answered");
        }
        catch
        {
            await rpc.DisposeAsync();
            throw;
        }
    }
}
