using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// The engine as a swarm manager for the swarm tests: one already in a swarm is used as it is; one that is not is made
/// a single-node swarm (`docker swarm init --advertise-addr 127.0.0.1`, through the API) and leaves it when the tests
/// that share this fixture are done, so the engine ends as it was found.
/// </summary>
public sealed class SingleNodeSwarm : IAsyncLifetime
{
    private readonly SemaphoreSlim gate = new(1, 1);

    /// <summary>The bridge swarm init makes for the hosts' gateways, which leaving keeps: removed too when the init made it.</summary>
    private const string GatewayBridge = "docker_gwbridge";
    private bool created;
    private bool bridgeCreated;

    /// <summary>Makes the engine a manager if it is in no swarm; a worker, or a swarm in trouble, skips the test with the reason.</summary>
    internal async Task EnsureAsync(DockerEngine engine)
    {
        await gate.WaitAsync();
        try
        {
            var state = await engine.Swarm.GetStateAsync();
            if (state.LocalNodeState == "inactive")
            {
                bridgeCreated = await engine.FindNetworkAsync(GatewayBridge) is null;
                await engine.Swarm.InitAsync("127.0.0.1");
                created = true;
                state = await engine.Swarm.GetStateAsync();
            }
            Skip.IfNot(
                state is { IsActive: true, IsManager: true },
                $"the engine is in a swarm but not its manager ({state.LocalNodeState}): the swarm tests need a manager"
            );
        }
        finally
        {
            gate.Release();
        }
    }

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        if (created)
        {
            using var engine = new DockerEngine();
            await engine.Swarm.LeaveAsync();
            if (bridgeCreated && await engine.FindNetworkAsync(GatewayBridge) is { } bridge)
            {
                await engine.RemoveNetworkAsync(bridge);
            }
        }
    }
}
