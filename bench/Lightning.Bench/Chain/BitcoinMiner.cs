using System.Text.Json.Nodes;

namespace Lightning.Bench.Chain;

/// <summary>
/// bitcoind with a wallet that mines and pays: the source of every coin in the topology. It is bitcoind's only wallet,
/// so wallet calls go to the node's own endpoint (bitcoind routes them to its single loaded wallet).
/// </summary>
internal sealed class BitcoinMiner(BitcoinRpcClient node, string address) : IDisposable
{
    public const string WalletName = "miner";

    public BitcoinRpcClient Node { get; } = node;

    public static async Task<BitcoinMiner> CreateAsync(BitcoinRpcClient node, CancellationToken ct = default)
    {
        await node.CallAsync("createwallet", [WalletName], ct);
        return await OpenAsync(node, ct);
    }

    /// <summary>The miner of a bitcoind that loaded its wallet at start (a seeded chain).</summary>
    public static async Task<BitcoinMiner> OpenAsync(BitcoinRpcClient node, CancellationToken ct = default)
    {
        var address = (await node.CallAsync("getnewaddress", [], ct)).GetString()!;
        return new BitcoinMiner(node, address);
    }

    /// <summary>Asks bitcoind to shut down cleanly (its files are then whole, to copy).</summary>
    public Task StopNodeAsync(CancellationToken ct = default) => Node.CallAsync("stop", [], ct);

    public async Task<long> GetHeightAsync(CancellationToken ct = default) =>
        (await Node.CallAsync("getblockcount", [], ct)).GetInt64();

    public async Task MineAsync(int blocks, CancellationToken ct = default) =>
        await Node.CallAsync("generatetoaddress", [blocks, address], ct);

    /// <summary>Pays every address in one transaction, so N wallets are funded by one block.</summary>
    public async Task<string> SendManyAsync(IReadOnlyDictionary<string, decimal> amountsBtc, CancellationToken ct = default)
    {
        var outputs = new JsonObject();
        foreach (var (address, amount) in amountsBtc)
        {
            outputs[address] = amount;
        }
        return (await Node.CallAsync("sendmany", ["", outputs], ct)).GetString()!;
    }

    /// <summary>
    /// A signed transaction from the miner's wallet paying every address its amount (satoshis), not broadcast: its PSBT
    /// (for nodes that must see the funding transaction before it is sent) and its raw form (to send).
    /// </summary>
    public async Task<(string Psbt, string Transaction)> CreateFundingAsync(IReadOnlyDictionary<string, long> amountsSat, CancellationToken ct = default)
    {
        var outputs = new JsonObject();
        foreach (var (address, sat) in amountsSat)
        {
            outputs[address] = sat / 100_000_000m;
        }
        var unsigned = (await Node.CallAsync("walletcreatefundedpsbt", [new JsonArray(), outputs], ct)).GetProperty("psbt").GetString()!;
        var signed = await Node.CallAsync("walletprocesspsbt", [unsigned], ct);
        if (!signed.GetProperty("complete").GetBoolean())
        {
            throw new InvalidOperationException("the miner's wallet could not sign the funding transaction");
        }
        var psbt = signed.GetProperty("psbt").GetString()!;
        var final = await Node.CallAsync("finalizepsbt", [psbt], ct);
        return (psbt, final.GetProperty("hex").GetString()!);
    }

    /// <summary>Sends a raw transaction; returns its id.</summary>
    public async Task<string> BroadcastAsync(string transaction, CancellationToken ct = default) =>
        (await Node.CallAsync("sendrawtransaction", [transaction], ct)).GetString()!;

    public void Dispose() => Node.Dispose();
}
