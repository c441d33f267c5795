using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A pure function: the same topology model, run settings and fragments as <see cref="ComposeGenerator"/> → a
/// `docker stack deploy` file. Swarm drops network_mode "service:…", so every service joins the run's overlay network
/// under an alias that carries its stack, and every node listens on its own address there (port
/// <see cref="SwarmNames.PeerPort"/>); the work volume holds the node folders (the agent on the same host binds their
/// trace sockets and relays their RPC sockets); credentials are external secrets mounted under /run/secrets/, so the
/// file kept with the results holds none; no task restarts (a node that died stays dead and is reported).
/// </summary>
internal static class StackGenerator
{
    /// <summary>Compose file format 3.8: the newest `docker stack deploy` of Docker 20.10 reads (secrets, named volumes, init).</summary>
    public const string Version = "3.8";

    /// <summary>The key of the run's network and work volume within a stack file.</summary>
    public const string RunNetworkKey = "run";

    public const string WorkVolumeKey = "work";

    /// <summary>The host label a node with a <see cref="NodeSpec.Placement"/> is placed by.</summary>
    public const string PlacementLabel = "lnbench.placement";

    /// <summary>Owner read only, in decimal (0400).</summary>
    private const int SecretMode = 256;

    public static PeerAddress PeerAddressOf(string stack, string node) =>
        new(SwarmNames.Alias(stack, node), SwarmNames.PeerPort);

    public static ComposeFile Generate(
        TopologySpec topology,
        StackSettings settings,
        ComposeFragments fragments,
        NodeKindCatalog? kinds = null
    )
    {
        kinds ??= NodeKindCatalog.Default;
        var stack = settings.StackName;
        var file = new ComposeFile
        {
            Version = Version,
            Networks = new()
            {
                [RunNetworkKey] = new ComposeNetwork { External = true, Name = SwarmNames.Network(settings.RunId) },
            },
            Volumes = new()
            {
                [WorkVolumeKey] = new ComposeVolume
                {
                    Name = SwarmNames.WorkVolume(settings.RunId),
                    Labels = new(settings.Labels),
                },
            },
            Secrets = new(),
        };

        // The stack's own folder: the agent makes it (for the nodes' user) when it binds the nodes' sockets, before the
        // stack is deployed, and bitcoind does not make its data folder itself.
        var bitcoindDirectory = $"{SwarmNames.WorkMount}/{stack}";
        var bitcoind = Customize(fragments.Bitcoind, TopologySpec.BitcoindName, topology.BitcoindImage, settings, file);
        bitcoind.Command!.Add($"-datadir={bitcoindDirectory}");
        bitcoind.Command.Add($"-conf=/run/secrets/{ConfigTarget(TopologySpec.BitcoindName)}");
        file.Services[TopologySpec.BitcoindName] = bitcoind;

        foreach (var node in topology.Nodes)
        {
            var kind = kinds.Get(node.Kind);
            var directory = SwarmNames.ContainerDirectory(stack, node.Name);
            var emittedSpans = kind.Traces?.EmittedSpansPrefix;
            var service = kind.DescribeService(
                Customize(fragments.For(kind.FragmentFile), node.Name, node.Image, settings, file),
                new NodeServiceSettings(
                    node.Name,
                    directory,
                    SwarmNames.Alias(stack, TopologySpec.BitcoindName),
                    ComposeGenerator.BitcoindRpcPort,
                    PeerAddressOf(stack, node.Name),
                    settings.TraceSockets && kind.Traces is not null
                        ? $"{directory}/{RunLayout.TraceSocketName}"
                        : null,
                    settings.DevTraceFile && emittedSpans is not null ? $"{directory}/{emittedSpans}" : null,
                    $"/run/secrets/{ConfigTarget(node.Name)}"
                )
                {
                    Options = node.Options,
                }
            );
            if (node.Placement is { } placement)
            {
                // On the host the run chose among those labelled (its agent binds the node's socket there first); the
                // label too, so the file says why.
                service.Deploy!.Placement = new ComposePlacement
                {
                    Constraints =
                    [
                        $"node.labels.{PlacementLabel} == {placement}",
                        $"node.hostname == {settings.NodeHosts.GetValueOrDefault(node.Name, settings.Host)}",
                    ],
                };
            }
            // Swarm publishes ports on every host through its routing mesh: a node's API is reached through the agent instead.
            service.Ports = null;
            file.Services[node.Name] = service;
        }
        return file;
    }

    /// <summary>Where a service's configuration secret is mounted: /run/secrets/TARGET.</summary>
    public static string ConfigTarget(string service) => $"{service}.conf";

    private static ComposeService Customize(
        ComposeService fragment,
        string name,
        string image,
        StackSettings settings,
        ComposeFile file
    )
    {
        var service = fragment.Clone();
        service.Image = image;
        service.User = settings.User;
        service.Command = (service.Command ?? []).Select(ComposeYaml.Literal).ToList();
        service.Labels = new Dictionary<string, string>(service.Labels ?? new())
        {
            [ComposeGenerator.NodeLabel] = name,
        };
        foreach (var (key, value) in settings.Labels)
        {
            service.Labels[key] = value;
        }
        service.Volumes = [$"{WorkVolumeKey}:{SwarmNames.WorkMount}"];
        service.Networks = new()
        {
            [RunNetworkKey] = new ComposeServiceNetwork { Aliases = [SwarmNames.Alias(settings.StackName, name)] },
        };

        var secret = SwarmNames.ConfigSecret(settings.StackName, name);
        file.Secrets![secret] = new ComposeSecret { External = true, Name = secret };
        var (uid, gid) = settings.User?.Split(':') is [var u, var g] ? (u, g) : (null, null);
        service.Secrets =
        [
            new ComposeServiceSecret
            {
                Source = secret,
                Target = ConfigTarget(name),
                Uid = uid,
                Gid = gid,
                Mode = SecretMode,
            },
        ];

        service.Deploy = new ComposeDeploy
        {
            Mode = "replicated",
            Replicas = 1,
            // Nodes reach bitcoind and each other at their tasks' addresses: a virtual IP needs the kernel's IPVS (a
            // host without it times connections out; this machine's kernel has none) and adds a hop to every message.
            EndpointMode = "dnsrr",
            Labels = new Dictionary<string, string>(service.Labels),
            // A node that exits stays down: the death watch reports it; a restarted node would be another topology.
            RestartPolicy = new ComposeRestartPolicy { Condition = "none" },
            Placement = new ComposePlacement { Constraints = [$"node.hostname == {settings.Host}"] },
        };
        return service;
    }
}
