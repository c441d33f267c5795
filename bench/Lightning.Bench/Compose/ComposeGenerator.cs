using Lightning.Bench.Network;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Compose;

/// <summary>A pure function: topology + run settings + fragments → compose model. No I/O, so it is tested against golden files.</summary>
public static class ComposeGenerator
{
    public const int BitcoindRpcPort = 18443;
    public const int LightningPort = 9735;
    public const string NodeLabel = "lnbench.node";

    public static ComposeFile Generate(TopologySpec topology, ComposeRunSettings settings, ComposeFragments fragments)
    {
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
            var service = Customize(fragments.CoreLightning, node.Name, node.Image, settings);
            service.Command!.AddRange(
            [
                $"--lightning-dir={RunLayout.ContainerMount}",
                $"--alias={node.Name}",
                $"--bitcoin-rpcconnect={TopologySpec.BitcoindName}",
                $"--bitcoin-rpcport={BitcoindRpcPort}",
                $"--addr=0.0.0.0:{LightningPort}",
                $"--log-file={RunLayout.ContainerPath("lightningd.log")}",
                "--log-file=-",
            ]);
            service.DependsOn = [TopologySpec.BitcoindName];
            if (settings.TraceSockets)
            {
                service.Environment ??= new();
                service.Environment["CLN_TRACE_SOCKET"] = RunLayout.ContainerPath(RunLayout.TraceSocketName);
            }
            if (settings.DevTraceFile)
            {
                service.Environment ??= new();
                service.Environment["CLN_DEV_TRACE_FILE"] = RunLayout.ContainerPath(RunLayout.DevTraceFilePrefix);
            }
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
