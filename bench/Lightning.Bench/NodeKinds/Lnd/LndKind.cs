using System.Security.Cryptography.X509Certificates;
using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Processes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// LND (Lightning Labs' lnd), driven over its REST API with the admin macaroon and the TLS certificate it writes into
/// its folder, following the chain through bitcoind's RPC and ZMQ. It sends no spans.
/// </summary>
internal sealed class LndKind : INodeKind
{
    public const string KindName = "lnd";

    /// <summary>docker-fragments/lnd.yml.</summary>
    public const string Fragment = "lnd.yml";

    /// <summary>Where lnd writes, under its --lnddir (regtest): the macaroon, certificate and log.</summary>
    public const string AdminMacaroonPath = "data/chain/bitcoin/regtest/admin.macaroon";

    public const string CertificateFile = "tls.cert";

    public const string LogPath = "logs/bitcoin/regtest/lnd.log";

    public const string ConfigFileName = "lnd.conf";

    /// <summary>bitcoind's ZMQ publishers, inside the topology's network namespace, for every LND node of it.</summary>
    public const int ZmqBlockPort = 28332;

    public const int ZmqTxPort = 28333;

    /// <summary>The REST listener is the node's peer port + 100, its gRPC listener + 200 (one namespace per topology).</summary>
    public const int RestPortOffset = 100;

    public const int GrpcPortOffset = 200;

    public string Name => KindName;

    public string FragmentFile => Fragment;

    /// <summary>An invoice with AddInvoice on the payee, paid with routerrpc's SendPaymentV2 on the payer.</summary>
    public PaymentCalls PaymentCalls { get; } =
        new("AddInvoice", "SendPaymentV2") { Keysend = "SendPaymentV2 keysend" };

    public IReadOnlyDictionary<string, string> VersionProbes { get; } =
        new Dictionary<string, string> { ["lnd"] = "--version" };

    /// <summary>lnd exits when bitcoind's ZMQ refuses it at start, as it does until bitcoind has loaded its chain.</summary>
    public bool WaitsForChain => true;

    /// <summary>
    /// The node calls <see cref="LndNode"/> implements, PostgreSQL (its native SQL store) and the histories written
    /// there, and histories of invoices, payments and forwards on its own bbolt files; no swarm (its REST API is reached through a
    /// port published on this host, not through a swarm agent's pipe), Valgrind, or graph.
    /// </summary>
    public IReadOnlySet<Capability> Offers { get; } =
        KnownCapabilities
            .OfNode(typeof(LndNode))
            .Concat([
                KnownCapabilities.Postgres,
                KnownCapabilities.HistoryOnPostgres(HistoryKinds.Invoices),
                KnownCapabilities.HistoryOnPostgres(HistoryKinds.Payments),
                KnownCapabilities.HistoryOf(HistoryKinds.Invoices),
                KnownCapabilities.HistoryOf(HistoryKinds.Payments),
                KnownCapabilities.HistoryOf(HistoryKinds.Forwards),
            ])
            .ToHashSet();

    /// <summary>Paid invoices (the payee's) and succeeded payments (the payer's), each on PostgreSQL or its bbolt files; forwards (the router's) on its bbolt files.</summary>
    INodeHistory? INodeKind.HistoryOf(string what) =>
        what switch
        {
            HistoryKinds.Invoices => Invoices,
            HistoryKinds.Payments => Payments,
            HistoryKinds.Forwards => Forwards,
            _ => null,
        };

    private static readonly LndInvoicesHistory Invoices = new();
    private static readonly LndPaymentsHistory Payments = new();
    private static readonly LndForwardsHistory Forwards = new();

    /// <summary>Each history with the release its SQL tables came in (payments: v0.21); on bbolt, with the releases whose key-value invoices or payments the harness writes.</summary>
    string? INodeKind.Lacks(Capability capability, IReadOnlyDictionary<string, string> versions) =>
        HistoryKinds.All.FirstOrDefault(h => KnownCapabilities.HistoryOnPostgres(h) == capability) is { } what
            ? ((INodeKind)this).HistoryOf(what)?.Refusal(versions)
        : capability == KnownCapabilities.HistoryOf(HistoryKinds.Invoices) ? LndKvInvoices.Refusal(versions)
        : capability == KnownCapabilities.HistoryOf(HistoryKinds.Payments) ? LndKvPayments.Refusal(versions)
        : capability == KnownCapabilities.HistoryOf(HistoryKinds.Forwards) ? LndKvForwards.Refusal(versions)
        : null;

    /// <summary>LND has no trace socket.</summary>
    public ITraceSource? Traces => null;

    public IReadOnlyList<string> BitcoindOptions { get; } =
    [$"-zmqpubrawblock=tcp://127.0.0.1:{ZmqBlockPort}", $"-zmqpubrawtx=tcp://127.0.0.1:{ZmqTxPort}"];

    public ComposeService DescribeService(ComposeService fragment, NodeServiceSettings settings)
    {
        var service = fragment.Clone();
        var rest = settings.Peer.Port + RestPortOffset;
        service.Command ??= [];
        service.Command.AddRange([
            $"--lnddir={settings.ContainerDirectory}",
            $"--configfile={settings.ConfigFile ?? $"{settings.ContainerDirectory}/{ConfigFileName}"}",
            $"--alias={settings.Name}",
            $"--listen=0.0.0.0:{settings.Peer.Port}",
            // The gateway listens where the engine's proxy reaches it (the namespace's interface), published on loopback.
            $"--restlisten=0.0.0.0:{rest}",
            $"--rpclisten=127.0.0.1:{settings.Peer.Port + GrpcPortOffset}",
            $"--bitcoind.rpchost={settings.BitcoindHost}:{settings.BitcoindRpcPort}",
            $"--bitcoind.zmqpubrawblock=tcp://{settings.BitcoindHost}:{ZmqBlockPort}",
            $"--bitcoind.zmqpubrawtx=tcp://{settings.BitcoindHost}:{ZmqTxPort}",
        ]);
        var ready = $"[ -e {settings.ContainerDirectory}/{INodeKind.ChainReadyFile} ]";
        if (settings.PostgresUrl is { } url)
        {
            // Its database on the topology's PostgreSQL server, native SQL tables for what lnd keeps in SQL (invoices,
            // payments, the graph), at most PostgresConnections connections (the server's default allows 100 in all).
            service.Command.AddRange([
                "--db.backend=postgres",
                $"--db.postgres.dsn={url}?sslmode=disable",
                "--db.use-native-sql",
                $"--db.postgres.maxconnections={PostgresConnections}",
            ]);
            ready += $" && [ -e {settings.ContainerDirectory}/{NodeServiceSettings.DatabaseReadyFile} ]";
        }
        service.Command.AddRange(settings.Options);
        // lnd gives up at once when bitcoind's ZMQ (or its database) is not up yet: its container waits for the harness's word first.
        service.Entrypoint = ["/bin/sh", "-c", $"until {ready}; do sleep 0.05; done; exec lnd \"$$@\"", "lnd"];
        service.Ports = [$"127.0.0.1::{rest}"];
        // lnd asks for a home directory even when told every path.
        service.Environment ??= new();
        service.Environment["HOME"] = settings.ContainerDirectory;
        return service;
    }

    /// <summary>
    /// The connections an lnd on --db postgres may open (its default, 50, would let two nodes take a default server's 100):
    /// 20 leaves room for four nodes and the harness.
    /// </summary>
    public const int PostgresConnections = 20;

    /// <summary>Options that would take the node from the harness: its network, folders, listeners, credentials and bitcoind.</summary>
    private static readonly string[] Owned =
    [
        "--lnddir",
        "--configfile",
        "--datadir",
        "--logdir",
        "--tlscertpath",
        "--tlskeypath",
        "--adminmacaroonpath",
        "--readonlymacaroonpath",
        "--invoicemacaroonpath",
        "--no-macaroons",
        "--alias",
        "--listen",
        "--nolisten",
        "--rpclisten",
        "--restlisten",
        "--norest",
        "--noseedbackup",
        "--bitcoin.mainnet",
        "--bitcoin.testnet",
        "--bitcoin.testnet4",
        "--bitcoin.signet",
        "--bitcoin.simnet",
        "--bitcoin.regtest",
        "--bitcoin.node",
    ];

    public string? RefuseOption(string option)
    {
        var name = option.Split('=', 2)[0];
        return Owned.Contains(name) || name.StartsWith("--bitcoind.", StringComparison.Ordinal)
            ? $"{name} is the harness's: it sets the node's network, folders, listeners, macaroons and bitcoind itself"
            : null;
    }

    public async Task<ImageCheck> CheckImageAsync(
        IReadOnlyDictionary<string, string> versions,
        IReadOnlyList<string> options,
        Func<IReadOnlyList<string>, CancellationToken, Task<(int ExitCode, string Output)>> run,
        CancellationToken ct = default
    )
    {
        var text = versions.GetValueOrDefault("lnd", "");
        List<string> notes =
        [
            $"LND ({text}) has no trace socket: its payments have no steps and no spans; times, outcomes and node costs are measured as ever",
        ];
        var release = LndRelease.Parse(text);
        // Versions read for another use of the image (as bitcoind's, say) have no lnd to judge.
        if (text.Length > 0 && release is null)
        {
            return new ImageCheck(
                $"its lnd answers --version with '{text}', not a release the harness can read: give an image of an LND release (v{LndRelease.Oldest} to v{LndRelease.Newest}.x)",
                notes
            );
        }
        if (release?.Refusal() is { } refusal)
        {
            return new ImageCheck(refusal, notes);
        }
        notes.AddRange(release?.Differences() ?? []);
        return new ImageCheck(
            await ImageCheck.UnknownOptionsAsync(options, $"its lnd ({text})", ["lnd", "--help"], run, ct),
            notes
        );
    }

    public string? RefuseBitcoind(IReadOnlyDictionary<string, string> versions, string bitcoindVersion) =>
        LndRelease.Parse(versions.GetValueOrDefault("lnd", "")) is { } release
            ? release.RefuseBitcoind(bitcoindVersion)
            : null;

    public void Configure(string nodeDirectory, RunCredentials credentials) =>
        PrivateFiles.Write(
            Path.Combine(nodeDirectory, ConfigFileName),
            $"[Bitcoind]\nbitcoind.rpcuser={credentials.User}\nbitcoind.rpcpass={credentials.Password}\n"
        );

    public string LogFile(string nodeDirectory) => Path.Combine(nodeDirectory, LogPath);

    /// <summary>The channel graph and channel state (bolt) and the on-chain wallet.</summary>
    public IReadOnlyList<string> DataFiles(string nodeDirectory) =>
        [
            Path.Combine(nodeDirectory, LndKvStore.ChannelDbPath),
            Path.Combine(nodeDirectory, "data", "chain", "bitcoin", "regtest", "wallet.db"),
        ];

    public async Task<(ILightningNode? Node, string Observed)> TryConnectAsync(
        NodeContainer container,
        CancellationToken ct = default
    )
    {
        var restPort = $"{container.Peer.Port + RestPortOffset}/tcp";
        if (!container.HostPorts.TryGetValue(restPort, out var port))
        {
            return (null, $"its REST port {restPort} is not published");
        }
        var macaroon = Path.Combine(container.Directory, AdminMacaroonPath);
        var certificate = Path.Combine(container.Directory, CertificateFile);
        if (!File.Exists(certificate) || !File.Exists(macaroon))
        {
            return (null, $"{(File.Exists(certificate) ? macaroon : certificate)} does not exist yet");
        }
        var rest = new LndRestClient(
            container.Name,
            new Uri($"https://127.0.0.1:{port}/"),
            await File.ReadAllBytesAsync(macaroon, ct),
            X509Certificate2.CreateFromPem(await File.ReadAllTextAsync(certificate, ct))
        );
        try
        {
            var (id, version) = await rest.GetAsync(
                "v1/getinfo",
                info =>
                    (
                        info.GetProperty("identity_pubkey").GetString()!,
                        info.TryGetProperty("version", out var v) ? v.GetString() ?? "" : ""
                    ),
                ct
            );
            // GetInfo answers before lnd's peer server is up (v0.19: ConnectPeer then says "server is still in the
            // process of starting"): ready once its state is SERVER_ACTIVE.
            var state = await rest.GetAsync(
                "v1/state",
                answer => answer.TryGetProperty("state", out var s) ? s.GetString() ?? "" : "",
                ct
            );
            if (state != "SERVER_ACTIVE")
            {
                await rest.DisposeAsync();
                return (null, $"its state is {state}, not SERVER_ACTIVE yet");
            }
            return (new LndNode(container.Name, container.Peer, rest, id, version), "answered");
        }
        catch (NodeCallException e) when (e.Failure is NodeCallFailure.Refused or NodeCallFailure.ConnectionLost)
        {
            // Starting: the gateway is up before the RPC server ("the RPC server is in the process of starting up").
            await rest.DisposeAsync();
            return (null, e.Message);
        }
        catch
        {
            await rest.DisposeAsync();
            throw;
        }
    }
}
