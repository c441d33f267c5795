using Lightning.Bench.Chain;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Network;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Cases;

/// <summary>
/// The run's regtest chain, mined once on a bitcoind of its own and kept (<see cref="ChainSeed"/>) in a private folder
/// under the work root, so each topology starts from a copy at height 101 instead of mining it; the folder goes with the run.
/// </summary>
internal sealed class ChainSeeder(string runId, string workRoot, string bitcoindImage, RunProgress progress)
{
    private string? folder;

    /// <summary>The run's chain (null until <see cref="MineAsync"/>).</summary>
    public ChainSeed? Seed { get; private set; }

    /// <summary>Mines the chain on a topology of bitcoind alone, whose compose file and log go to <paramref name="resultsDirectory"/>.</summary>
    public async Task MineAsync(
        RunTopologies topologies,
        string resultsDirectory,
        ComposeFragments fragments,
        CancellationToken ct = default
    )
    {
        using var step = progress.Begin(
            $"mining the run's regtest chain ({BitcoindBootstrap.InitialBlocks} blocks) once, for every topology to start from"
        );
        folder = PrivateFiles.CreateDirectory(Path.Combine(workRoot, $"lnbench-{runId}-seed".ToLowerInvariant()));
        NodeFolderSweeper.Claim(folder);
        await using var network = topologies.Create(
            TopologySpec.ChainOnly(bitcoindImage),
            resultsDirectory,
            TraceModes.Off,
            seed: null
        );
        await network.StartAsync(fragments, ct: ct);
        Seed = await network.SaveChainAsync(folder, ct);
    }

    /// <summary>Deletes the chain's folder, at the end of the run.</summary>
    public void Remove()
    {
        if (folder is null)
        {
            return;
        }
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            progress.Info($"could not remove the run's chain seed {folder}: {e.Message}");
        }
    }
}
