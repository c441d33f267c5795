using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Compose;

/// <summary>A pure function: topology + run settings + fragments → compose model. No I/O, so it is tested against golden files.</summary>
public static class ComposeGenerator
{
    public const int BitcoindRpcPort = 18443;
    public const string NodeLabel = "lnbench.node";

    public static ComposeFile Generate(TopologySpec topology, ComposeRunSettings settings, ComposeFragments fragments, NodeKindCatalog? kinds = null)
    {
        kinds ??= NodeKindCatalog.Default;
        var file = new ComposeFile
        {
            Networks = new() { ["default"] = new ComposeNetwork { Labels = new(settings.Labels) } },
        };

        var bitcoind = Customize(fragments.Bitcoind, TopologySpec.BitcoindName, topology.BitcoindImage, settings);
        bitcoind.Command!.Add($"-datadir={RunLayout.ContainerMount}");
        // Reached by the harness only, through loopback on an ephemeral port.
        bitcoind.Ports = [$"127.0.0.1::{BitcoindRpcPort}"];
        file.Services[TopologySpec.BitcoindName] = bitcoind;

        foreach (var node in topology.Nodes)
        {
            var kind = kinds.Get(node.Kind);
            var traced = kind.Traces is not null;
            var service = kind.DescribeService(Customize(fragments.For(kind.FragmentFile), node.Name, node.Image, settings), new NodeServiceSettings(
                node.Name,
                RunLayout.ContainerMount,
                TopologySpec.BitcoindName,
                BitcoindRpcPort,
                settings.TraceSockets && traced ? RunLayout.ContainerPath(RunLayout.TraceSocketName) : null,
                settings.DevTraceFile && traced ? RunLayout.ContainerPath(RunLayout.DevTraceFilePrefix) : null));
            service.DependsOn = [TopologySpec.BitcoindName];
            file.Services[node.Name] = service;
        }
        return file;
    }

    private static ComposeService Customize(ComposeService fragment, string name, string image, ComposeRunSettings settings)
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
