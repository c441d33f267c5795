using Lightning.Bench.Bisection;
using Lightning.Bench.Docker;
using Lightning.Bench.Progress;
using Lightning.Bench.Sources;

namespace Lightning.Bench.Tests;

/// <summary>A bisection on real nodes: a throwaway repository whose commits' images are the E2E Core Lightning image, tagged by the image command.</summary>
[Trait("Category", "E2E")]
[Collection(DockerCollection.Name)]
public sealed class BisectEndToEndTests : IDisposable
{
    private readonly ThrowawayRepository repository = new();
    private readonly string results = Directory.CreateTempSubdirectory("lnbench-results-").FullName;

    /// <summary>On real nodes (each commit's image is the E2E Core Lightning image, tagged by the image command).</summary>
    [SkippableFact]
    public async Task Ctrl_C_during_a_bisections_step_ends_it_with_the_way_to_resume_and_leaves_nothing_running()
    {
        var (cln, bitcoind) = Requirements.NodeImages();
        var first = repository.Commit("first", new Dictionary<string, string?> { ["a.txt"] = "1\n" });
        repository.Commit("second", new Dictionary<string, string?> { ["a.txt"] = "2\n" });
        using var harness = HarnessProcess.Start(
            "bisect",
            first,
            "main",
            "AlicePaysBob",
            "--source",
            repository.Path,
            "--image-command",
            $"docker tag {cln} {{image}}",
            "--metric",
            "mean time",
            "--max-time",
            "5m",
            "--bitcoind-image",
            bitcoind,
            "--no-pull",
            "--results",
            results
        );
        await harness.WaitForOutputAsync("topology ready, benchmarking", TimeSpan.FromMinutes(5));

        await harness.SignalAsync("INT");

        Assert.Equal(HarnessExit.Interrupted, await harness.WaitForExitAsync(TimeSpan.FromMinutes(2)));
        var folder = Assert.Single(Directory.GetDirectories(results, "bisect-*"));
        Assert.Contains(
            $"the bisection was stopped during a step; ./run.sh bisect --resume {folder} goes on from the steps done",
            harness.Output
        );
        Assert.Equal(BisectRecord.Measuring, BisectRecord.Read(Path.Combine(folder, BisectRecord.FileName)).Status);
        using var engine = new DockerEngine();
        await RunResources.Of(engine, harness.RunId!).AssertNoneLeftAsync();
    }

    public void Dispose()
    {
        if (Requirements.DockerAvailable)
        {
            using var engine = new DockerEngine();
            new BuiltImageCache(engine).PruneAsync(GitCheckout.NameOf(repository.Path)).GetAwaiter().GetResult();
        }
        repository.Dispose();
        Directory.Delete(results, recursive: true);
    }
}
