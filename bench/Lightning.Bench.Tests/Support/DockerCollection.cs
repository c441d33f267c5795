namespace Lightning.Bench.Tests.Support;

/// <summary>Tests that drive the Docker engine run one after another: they count containers by label, and two topologies at once would also compete for the two cores.</summary>
[CollectionDefinition(Name)]
public sealed class DockerCollection
{
    public const string Name = "Docker engine";
}
