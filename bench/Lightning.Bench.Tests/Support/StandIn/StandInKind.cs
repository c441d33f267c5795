using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Capabilities;
using Lightning.Bench.Processes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests.Support.StandIn;

/// <summary>
/// A test-only node kind: proves the seam carries a whole run without Core Lightning code. Its nodes are the busybox
/// scripts of <see cref="StandInScripts"/>, reached over HTTP on their peer port, published on loopback.
/// </summary>
internal sealed class StandInKind : INodeKind
{
    public const string KindName = "standin";
    public const string Fragment = "standin.yml";

    /// <summary>Its fragment (Support/StandIn/standin.yml, copied beside the tests), as docker-fragments/ holds a shipped kind's.</summary>
    public static string FragmentSource => Path.Combine(AppContext.BaseDirectory, "Support", "StandIn", Fragment);

    public string Name => KindName;

    public string FragmentFile => Fragment;

    public PaymentCalls PaymentCalls { get; } = new("invoice", "pay");

    public IReadOnlyDictionary<string, string> VersionProbes { get; } =
        new Dictionary<string, string> { ["standin-node"] = "--version" };

    public ITraceSource? Traces => null;

    /// <summary>Keysend (its node implements it) and swarms (its nodes answer over HTTP through a published port or an agent).</summary>
    public IReadOnlySet<Capability> Offers { get; } =
        KnownCapabilities.OfNode(typeof(StandInNode)).Append(KnownCapabilities.Swarm).ToHashSet();

    public ComposeService DescribeService(ComposeService fragment, NodeServiceSettings settings)
    {
        var service = fragment.Clone();
        service.Command =
        [
            .. service.Command ?? [],
            $"--alias={settings.Name}",
            $"--addr={settings.Peer.Host}:{settings.Peer.Port}",
            $"--chain={settings.BitcoindHost}:{settings.BitcoindRpcPort}",
        ];
        service.Ports = [$"127.0.0.1::{settings.Peer.Port}"];
        return service;
    }

    public void Configure(string nodeDirectory, RunCredentials credentials) =>
        PrivateFiles.Write(Path.Combine(nodeDirectory, "standin.conf"), "chain=bitcoind:18443\n");

    public string LogFile(string nodeDirectory) => Path.Combine(nodeDirectory, "node.log");

    public async Task<(ILightningNode? Node, string Observed)> TryConnectAsync(
        NodeContainer container,
        CancellationToken ct = default
    )
    {
        if (!container.HostPorts.TryGetValue($"{container.Peer.Port}/tcp", out var port))
        {
            return (null, "its port is not published");
        }
        var node = new StandInNode(container.Name, container.Peer, new Uri($"http://127.0.0.1:{port}/cgi-bin/"));
        try
        {
            await node.InitializeAsync(ct);
            return (node, "answered");
        }
        catch
        {
            await node.DisposeAsync();
            throw;
        }
    }
}
