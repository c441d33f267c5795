namespace Lightning.Bench.Chain;

/// <summary>
/// A regtest chain mined once per run (101 blocks, one spendable coinbase, and the miner's wallet), copied into every
/// topology's bitcoind folder before it starts. Each topology then starts at height 101 with coins to spend, instead of
/// mining them and having each node process every block. Every topology of every build gets the same copy, so the
/// chain is no difference between builds; the copy is the topology's own, so no topology sees another's blocks.
/// </summary>
internal sealed class ChainSeed(string directory)
{
    /// <summary>bitcoind's folder for regtest under its data directory: the blocks, chain state and wallets.</summary>
    public const string ChainFolder = "regtest";

    /// <summary>
    /// What a seeded bitcoind needs in its configuration: the miner's wallet loaded at start, and no "initial block
    /// download" however old the seed's last block gets (a long run), since nodes wait for bitcoind to leave it.
    /// </summary>
    public const string Configuration = $"maxtipage=315360000\n[regtest]\nwallet={BitcoinMiner.WalletName}\n";

    /// <summary>Logs and locks of the bitcoind that mined the seed stay behind.</summary>
    private static readonly HashSet<string> NotCopied = ["debug.log", ".lock", ".cookie", "settings.json"];

    /// <summary>The folder that holds <see cref="ChainFolder"/>.</summary>
    public string Directory { get; } = directory;

    /// <summary>Keeps the chain of a stopped bitcoind's data directory as the run's seed.</summary>
    public static ChainSeed Save(string bitcoindDirectory, string destination)
    {
        var target = Path.Combine(destination, ChainFolder);
        CopyFolder(Path.Combine(bitcoindDirectory, ChainFolder), target);
        return new ChainSeed(destination);
    }

    /// <summary>Puts a copy of the seed's chain into a topology's bitcoind data directory (before bitcoind starts).</summary>
    public void CopyInto(string bitcoindDirectory) =>
        CopyFolder(Path.Combine(Directory, ChainFolder), Path.Combine(bitcoindDirectory, ChainFolder));

    private static void CopyFolder(string source, string target)
    {
        if (!System.IO.Directory.Exists(source))
        {
            throw new InvalidDataException(
                $"bitcoind left no {ChainFolder} folder in {Path.GetDirectoryName(source)}: is the bitcoind image's data directory -datadir?"
            );
        }
        System.IO.Directory.CreateDirectory(target);
        foreach (
            var file in System.IO.Directory.EnumerateFiles(source).Where(f => !NotCopied.Contains(Path.GetFileName(f)))
        )
        {
            File.Copy(file, Path.Combine(target, Path.GetFileName(file)));
        }
        foreach (var folder in System.IO.Directory.EnumerateDirectories(source))
        {
            CopyFolder(folder, Path.Combine(target, Path.GetFileName(folder)));
        }
    }
}
