using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests.Support;

/// <summary>What a swarm test checks a run left: no service, container, network, secret or volume with its label.</summary>
internal static class SwarmLeftovers
{
    public static async Task AssertNoneAsync(DockerEngine engine, string labelFilter)
    {
        Assert.Empty(await engine.Swarm.ListServicesAsync(labelFilter));
        Assert.Empty(await engine.ListContainersAsync(labelFilter));
        Assert.Empty(await engine.ListNetworksAsync(labelFilter));
        Assert.Empty(await engine.Swarm.ListSecretsAsync(labelFilter));
        Assert.Empty(await engine.ListVolumesAsync(labelFilter));
    }
}
