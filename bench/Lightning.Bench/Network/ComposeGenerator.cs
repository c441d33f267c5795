using Lightning.Bench.Compose;
using Lightning.Bench.Instructions;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Network;

/// <summary>A pure function: topology + run settings + fragments → compose model. No I/O, so it is tested against golden files.</summary>
internal static class ComposeGenerator
{
    public const int BitcoindRpcPort = 18443;
    public const string NodeLabel = "lnbench.node";

    /// <summary>
    /// Every node joins bitcoind's network namespace (network_mode "service:bitcoind"), as a pod's containers do: one
    /// namespace and bridge endpoint per topology instead of one per container. Nodes reach bitcoind and each other on
    /// loopback, each listening on its own port; their processes, files and cgroups stay apart. bitcoind itself is on
    /// Docker's default bridge (the harness reaches it only through its published port, behind this run's rpcauth), so
    /// no network is created or removed per topology. Measured on the development machine (engine 20.10): a container
    /// joining another's namespace starts in 0.2 s, one on the default bridge in 0.58 s, one on a network of its own in
    /// 0.7 s after the network's 0.2 s.
    /// </summary>
    public const string PodHost = "127.0.0.1";

    public const string BridgeNetwork = "bridge";

    /// <summary>The first node's peer port; the i-th node (topology order) listens on FirstPeerPort + i.</summary>
    public const int FirstPeerPort = 9735;

    public static PeerAddress PeerAddressOf(TopologySpec topology, string node)
    {
        var index = topology.Nodes.Select(n => n.Name).ToList().IndexOf(node);
        return index < 0
            ? throw new ArgumentException($"{node} is not a node of the topology", nameof(node))
            : new(PodHost, FirstPeerPort + index);
    }

    public static ComposeFile Generate(
        TopologySpec topology,
        ComposeRunSettings settings,
        ComposeFragments fragments,
        NodeKindCatalog? kinds = null
    )
    {
        kinds ??= NodeKindCatalog.Default;
        var file = new ComposeFile();

        var bitcoind = Customize(fragments.Bitcoind, TopologySpec.BitcoindName, topology.BitcoindImage, settings);
        bitcoind.Command!.Add($"-datadir={RunLayout.ContainerMount}");
        // Reached by the harness only, through loopback on an ephemeral port.
        bitcoind.Ports = [$"127.0.0.1::{BitcoindRpcPort}"];
        bitcoind.NetworkMode = BridgeNetwork;
        // What the nodes' kinds need of bitcoind (LND: ZMQ), once each.
        bitcoind.Command.AddRange(topology.Nodes.SelectMany(n => kinds.Get(n.Kind).BitcoindOptions).Distinct());
        file.Services[TopologySpec.BitcoindName] = bitcoind;

        foreach (var node in topology.Nodes)
        {
            var kind = kinds.Get(node.Kind);
            var traced = kind.Traces is not null;
            var emittedSpans = kind.Traces?.EmittedSpansPrefix;
            var service = kind.DescribeService(
                Customize(fragments.For(kind.FragmentFile), node.Name, node.Image, settings),
                new NodeServiceSettings(
                    node.Name,
                    RunLayout.ContainerMount,
                    PodHost,
                    BitcoindRpcPort,
                    PeerAddressOf(topology, node.Name),
                    settings.TraceSockets && traced ? RunLayout.ContainerPath(RunLayout.TraceSocketName) : null,
                    settings.DevTraceFile && emittedSpans is not null ? RunLayout.ContainerPath(emittedSpans) : null
                )
                {
                    Options = node.Options,
                    PostgresUrl =
                        node.Database == Databases.Postgres
                            ? $"postgres://{Databases.User}:{Databases.Password}@{PodHost}:{Databases.Port}/{DatabaseName(node.Name)}"
                            : null,
                }
            );
            if (settings.Valgrind is { } valgrind)
            {
                service = ValgrindWrapping.Wrap(
                    service,
                    kind.Instructions
                        ?? throw new ArgumentException(
                            $"node kind {kind.Name} cannot run under Valgrind",
                            nameof(settings)
                        ),
                    valgrind
                );
            }
            service.DependsOn = [TopologySpec.BitcoindName];
            service.NetworkMode = $"service:{TopologySpec.BitcoindName}";
            // Ports belong to the namespace's owner: what a node publishes (an API for the harness) is published there.
            foreach (var port in service.Ports ?? [])
            {
                if (!bitcoind.Ports.Contains(port))
                {
                    bitcoind.Ports.Add(port);
                }
            }
            service.Ports = null;
            file.Services[node.Name] = service;
        }
        if (topology.Nodes.Any(n => n.Database == Databases.Postgres))
        {
            // The nodes' PostgreSQL server, in the pod: it listens on the topology's loopback. Its data stays in the
            // container (removed with it); it starts as the image's user, which owns that data.
            var postgres = Customize(
                fragments.For(ComposeFragments.PostgresFile),
                Databases.ServerName,
                settings.PostgresImage,
                settings
            );
            postgres.User = null;
            postgres.Volumes = null;
            postgres.Environment = new Dictionary<string, string>(postgres.Environment ?? [])
            {
                ["POSTGRES_USER"] = Databases.User,
                ["POSTGRES_PASSWORD"] = Databases.Password,
                ["POSTGRES_DB"] = Databases.User,
            };
            postgres.DependsOn = [TopologySpec.BitcoindName];
            postgres.NetworkMode = $"service:{TopologySpec.BitcoindName}";
            file.Services[Databases.ServerName] = postgres;
        }
        return file;
    }

    /// <summary>A node's database on the topology's PostgreSQL server (node names have dashes: carol-1 → carol_1).</summary>
    public static string DatabaseName(string node) => node.Replace('-', '_');

    private static ComposeService Customize(
        ComposeService fragment,
        string name,
        string image,
        ComposeRunSettings settings
    )
    {
        var service = fragment.Clone();
        service.Image = image;
        service.User = settings.User;
        service.Command ??= [];
        service.Labels = new Dictionary<string, string>(service.Labels ?? new()) { [NodeLabel] = name };
        foreach (var (key, value) in settings.Labels)
        {
            service.Labels[key] = value;
        }
        service.Volumes = [$"{ComposeYaml.Literal(settings.Layout.NodeDirectory(name))}:{RunLayout.ContainerMount}"];
        service.Command = service.Command.Select(ComposeYaml.Literal).ToList();
        return service;
    }
}
