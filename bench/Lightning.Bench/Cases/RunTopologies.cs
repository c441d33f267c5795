using Lightning.Bench.Chain;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Cases;

/// <summary>
/// The run's topologies: each made with the run's settings (compose project, folders, trace sockets, chain seed) and
/// tracked while alive, so a stopped run can tear down what is still up; at the end, whatever the run left is removed
/// by its label.
/// </summary>
internal sealed class RunTopologies(
    string runId,
    HarnessOptions options,
    DockerEngine engine,
    NodeKindCatalog kinds,
    RunProgress progress,
    Func<ITopologyPlatform> platform,
    Instructions.HostValgrind? valgrind = null
) : IAsyncDisposable
{
    private readonly List<LightningNetwork> alive = new();
    private int topologyNumber;

    /// <summary>A new topology's handle on the run's platform, tracked until it is torn down; call StartAsync on it next.</summary>
    /// <param name="replicate">Which topology of its case (the platform places both arms of a pair alike).</param>
    public LightningNetwork Create(
        TopologySpec topology,
        string resultsDirectory,
        string traceMode,
        ChainSeed? seed,
        int replicate = 1
    )
    {
        var number = Interlocked.Increment(ref topologyNumber);
        var settings = new NetworkOptions(
            runId,
            ProjectName: $"lnbench-{runId}-{number}".ToLowerInvariant(),
            WorkDirectory: options.WorkRoot,
            ResultsDirectory: resultsDirectory,
            ContainerUser: HostUser.ContainerUser,
            TraceSockets: traceMode != TraceModes.Off,
            CollectTraces: traceMode == TraceModes.On,
            DevTraceFile: traceMode == TraceModes.On && options.TraceCheck,
            StepTimeout: options.StepTimeout,
            Seed: seed,
            Valgrind: valgrind
        )
        {
            PostgresImage = options.PostgresImage,
        };
        var network = LightningNetwork.Create(
            topology,
            settings,
            platform().Place(topology, settings, replicate),
            engine,
            kinds,
            progress
        );
        lock (alive)
        {
            alive.Add(network);
        }
        return network;
    }

    /// <summary>Tears down every topology still alive, then removes whatever the run left, by its label.</summary>
    public async ValueTask DisposeAsync()
    {
        List<LightningNetwork> ending;
        lock (alive)
        {
            ending = alive.ToList();
            alive.Clear();
        }
        foreach (var network in ending)
        {
            try
            {
                await network.DisposeAsync();
            }
            catch (Exception e)
            {
                progress.Info(
                    $"{network.Options.ProjectName}: teardown failed ({e.Message}); removing the run's resources by label"
                );
            }
        }
        try
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.Run}={runId}", timeout.Token);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            progress.Info(
                $"could not remove the run's Docker resources by label ({e.Message}): remove containers labelled {RunLabels.Run}={runId} by hand"
            );
        }
    }
}
