using System.Text.Json.Nodes;

namespace Lightning.Bench.Chain;

/// <summary>bitcoind with a wallet that mines and pays: the source of every coin in the topology.</summary>
public sealed class BitcoinMiner(BitcoinRpcClient node, BitcoinRpcClient wallet, string address) : IDisposable
{
    public const string WalletName = "miner";

    public BitcoinRpcClient Node { get; } = node;

    public static async Task<BitcoinMiner> CreateAsync(BitcoinRpcClient node, CancellationToken ct = default)
    {
        await node.CallAsync("createwallet", [WalletName], ct);
        var wallet = node.ForWallet(WalletName);
        var address = (await wallet.CallAsync("getnewaddress", [], ct)).GetString()!;
        return new BitcoinMiner(node, wallet, address);
    }

    public async Task<long> GetHeightAsync(CancellationToken ct = default) =>
        (await Node.CallAsync("getblockcount", [], ct)).GetInt64();

    public async Task MineAsync(int blocks, CancellationToken ct = default) =>
        await wallet.CallAsync("generatetoaddress", [blocks, address], ct);

    /// <summary>Pays every address in one transaction, so N wallets are funded by one block.</summary>
    public async Task<string> SendManyAsync(IReadOnlyDictionary<string, decimal> amountsBtc, CancellationToken ct = default)
    {
        var outputs = new JsonObject();
        foreach (var (address, amount) in amountsBtc)
        {
            outputs[address] = amount;
        }
        return (await wallet.CallAsync("sendmany", ["", outputs], ct)).GetString()!;
    }

    public void Dispose()
    {
        wallet.Dispose();
        Node.Dispose();
    }
}
