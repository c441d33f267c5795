using Lightning.Bench.Chain;
using Lightning.Bench.Docker;
using Lightning.Bench.Topology;
using Lightning.Bench.Waiting;
using NBitcoin.RPC;

namespace Lightning.Bench.Network;

/// <summary>
/// Brings a topology's bitcoind to a spendable chain: waits for its RPC, then either opens the miner's wallet of a
/// seeded chain (<see cref="ChainSeed"/>: the coins are already there) or creates the wallet and mines the first coins.
/// </summary>
internal static class BitcoindBootstrap
{
    /// <summary>Coinbase outputs mature after 100 blocks: 101 leave one spendable.</summary>
    public const int InitialBlocks = 101;

    public static async Task<BitcoinMiner> StartAsync(
        DockerEngine engine,
        string containerId,
        RunCredentials credentials,
        NodeWaits waits,
        bool seeded,
        CancellationToken ct = default
    )
    {
        var details =
            await engine.InspectContainerAsync(containerId, ct)
            ?? throw new InvalidOperationException("the bitcoind container disappeared");
        if (!details.HostPorts.TryGetValue($"{ComposeGenerator.BitcoindRpcPort}/tcp", out var port))
        {
            await waits.ThrowIfAnyDiedAsync(ct);
            throw new InvalidOperationException("bitcoind's RPC port was not published");
        }
        return await StartAsync(
            new BitcoinRpcClient(new Uri($"http://127.0.0.1:{port}/"), credentials.User, credentials.Password),
            waits,
            seeded,
            ct
        );
    }

    /// <summary>The same, over an RPC client made by the caller (a swarm's bitcoind, reached through the run's gate); the miner owns it.</summary>
    public static async Task<BitcoinMiner> StartAsync(
        BitcoinRpcClient rpc,
        NodeWaits waits,
        bool seeded,
        CancellationToken ct = default
    )
    {
        try
        {
            await waits.UntilAsync(
                "bitcoind RPC to answer",
                async c =>
                {
                    // Untyped: the wait needs only an answer, and NBitcoin's typed form reads many fields that differ between bitcoind versions.
                    var info = await rpc.CallAsync(RPCOperations.getblockchaininfo, [], c);
                    return WaitState.Met((string)info["chain"]!);
                },
                ct
            );
            if (seeded)
            {
                return await BitcoinMiner.OpenAsync(rpc, ct);
            }
            var miner = await BitcoinMiner.CreateAsync(rpc, ct);
            await miner.MineAsync(InitialBlocks, ct);
            return miner;
        }
        catch
        {
            rpc.Dispose();
            throw;
        }
    }
}
