using NBitcoin;
using NBitcoin.RPC;
using Newtonsoft.Json.Linq;

namespace Lightning.Bench.Chain;

/// <summary>
/// bitcoind with a wallet that mines and pays: the source of every coin in the topology. It is bitcoind's only wallet,
/// so wallet calls go to the node's own endpoint (bitcoind routes them to its single loaded wallet); NBitcoin's
/// wallet-bound client (/wallet/NAME) is not used, and a chain that serves only / (the tests' stand-in) works too.
/// </summary>
internal sealed class BitcoinMiner(BitcoinRpcClient node, BitcoinAddress address) : IDisposable
{
    public const string WalletName = "miner";

    public BitcoinRpcClient Node { get; } = node;

    public static async Task<BitcoinMiner> CreateAsync(BitcoinRpcClient node, CancellationToken ct = default)
    {
        await node.CallAsync(
            RPCOperations.createwallet,
            (rpc, c) => rpc.CreateWalletAsync(WalletName, cancellationToken: c),
            ct
        );
        return await OpenAsync(node, ct);
    }

    /// <summary>The miner of a bitcoind that loaded its wallet at start (a seeded chain).</summary>
    public static async Task<BitcoinMiner> OpenAsync(BitcoinRpcClient node, CancellationToken ct = default) =>
        new(node, await node.CallAsync(RPCOperations.getnewaddress, (rpc, c) => rpc.GetNewAddressAsync(c), ct));

    /// <summary>Asks bitcoind to shut down cleanly (its files are then whole, to copy).</summary>
    public Task StopNodeAsync(CancellationToken ct = default) =>
        Node.CallAsync(RPCOperations.stop, (rpc, c) => rpc.StopAsync(c), ct);

    public async Task<long> GetHeightAsync(CancellationToken ct = default) =>
        await Node.CallAsync(RPCOperations.getblockcount, (rpc, c) => rpc.GetBlockCountAsync(c), ct);

    public Task MineAsync(int blocks, CancellationToken ct = default) =>
        Node.CallAsync(RPCOperations.generatetoaddress, (rpc, c) => rpc.GenerateToAddressAsync(blocks, address, c), ct);

    /// <summary>
    /// Pays every address in one transaction, so N wallets are funded by one block. Untyped: NBitcoin has no sendmany,
    /// and the nodes' addresses stay the strings they gave (a stand-in node's is no address NBitcoin could read).
    /// </summary>
    public async Task<string> SendManyAsync(
        IReadOnlyDictionary<string, decimal> amountsBtc,
        CancellationToken ct = default
    )
    {
        var outputs = new JObject();
        foreach (var (address, amount) in amountsBtc)
        {
            outputs[address] = amount;
        }
        return (string)(await Node.CallAsync(RPCOperations.sendmany, ["", outputs], ct))!;
    }

    /// <summary>
    /// A signed transaction from the miner's wallet paying every address its amount (satoshis), not broadcast: its PSBT
    /// (for nodes that must see the funding transaction before it is sent) and its raw form (to send).
    /// Untyped: NBitcoin's walletprocesspsbt takes no cancellation token and it has no finalizepsbt; untyped, the PSBT
    /// the nodes get is the one bitcoind wrote, not NBitcoin's re-serialisation of it.
    /// </summary>
    public async Task<(string Psbt, string Transaction)> CreateFundingAsync(
        IReadOnlyDictionary<string, long> amountsSat,
        CancellationToken ct = default
    )
    {
        var outputs = new JObject();
        foreach (var (address, sat) in amountsSat)
        {
            outputs[address] = sat / 100_000_000m;
        }
        var unsigned = (string)
            (await Node.CallAsync(RPCOperations.walletcreatefundedpsbt, [new JArray(), outputs], ct))["psbt"]!;
        var signed = await Node.CallAsync(RPCOperations.walletprocesspsbt, [unsigned], ct);
        if (!(bool)signed["complete"]!)
        {
            throw new InvalidOperationException("the miner's wallet could not sign the funding transaction");
        }
        var psbt = (string)signed["psbt"]!;
        var final = await Node.CallAsync(RPCOperations.finalizepsbt, [psbt], ct);
        return (psbt, (string)final["hex"]!);
    }

    /// <summary>Sends a raw transaction; returns its id.</summary>
    public async Task<string> BroadcastAsync(string transaction, CancellationToken ct = default) =>
        (
            await Node.CallAsync(
                RPCOperations.sendrawtransaction,
                (rpc, c) => rpc.SendRawTransactionAsync(Convert.FromHexString(transaction), c),
                ct
            )
        ).ToString();

    public void Dispose() => Node.Dispose();
}
