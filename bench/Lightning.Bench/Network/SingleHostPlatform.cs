using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Network;

/// <summary>Every topology on this Docker host, as a compose project (through the Engine API or docker compose).</summary>
internal sealed class SingleHostPlatform(
    DockerEngine engine,
    IComposeRunner compose,
    NodeKindCatalog kinds,
    RunProgress progress
) : ITopologyPlatform
{
    public const string PlatformName = "one host";

    public string Name => PlatformName;

    public bool SeedsChain => true;

    public ITopologyHost Place(TopologySpec topology, NetworkOptions options, int replicate) =>
        new SingleHostTopology(
            topology,
            options,
            new RunLayout(Path.Combine(options.WorkDirectory, options.ProjectName)),
            engine,
            compose,
            kinds,
            progress
        );

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
