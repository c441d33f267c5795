using Lightning.Bench.Chain;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Instructions;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Network;

/// <summary>
/// Puts a topology's containers on the engine and takes them off: the run folder with each node's configuration,
/// the compose file, bringing it up (<see cref="IComposeRunner"/>), and at the end down, a sweep by label and the folder's removal.
/// </summary>
internal sealed class TopologyLauncher(
    TopologySpec topology,
    NetworkOptions options,
    RunLayout layout,
    DockerEngine engine,
    IComposeRunner compose,
    NodeKindCatalog kinds,
    RunProgress progress
)
{
    private ComposeFile? model;

    /// <summary>Whether compose was asked to start anything (so teardown has something to take down).</summary>
    public bool Started { get; private set; }

    /// <summary>Writes the run folder (owner file first, then each node's configuration) and the compose file, kept with the results too.</summary>
    public async Task PrepareAsync(
        ComposeFragments fragments,
        RunCredentials credentials,
        CancellationToken ct = default
    )
    {
        if (Directory.Exists(layout.Root))
        {
            throw new IOException($"run folder {layout.Root} already exists; another run with the same id?");
        }
        // Claimed before any secret is written, so a harness killed now still has its folder removed by the next run.
        NodeFolderSweeper.Claim(PrivateFiles.CreateDirectory(layout.Root));
        var bitcoindDir = PrivateFiles.CreateDirectory(layout.NodeDirectory(TopologySpec.BitcoindName));
        PrivateFiles.Write(
            Path.Combine(bitcoindDir, "bitcoin.conf"),
            $"rpcauth={credentials.RpcAuth()}\n{(options.Seed is null ? "" : ChainSeed.Configuration)}"
        );
        options.Seed?.CopyInto(bitcoindDir);
        foreach (var node in topology.Nodes)
        {
            var directory = PrivateFiles.CreateDirectory(layout.NodeDirectory(node.Name));
            kinds.Get(node.Kind).Configure(directory, credentials);
            if (options.Valgrind is not null)
            {
                PrivateFiles.CreateDirectory(Path.Combine(directory, ValgrindWrapping.Folder));
            }
        }

        var settings = new ComposeRunSettings(
            options.ProjectName,
            layout,
            options.ContainerUser,
            new Dictionary<string, string>(RunLabels.For(options.RunId)),
            options.TraceSockets,
            options.DevTraceFile,
            options.Valgrind
        )
        {
            PostgresImage = options.PostgresImage,
        };
        model = ComposeGenerator.Generate(topology, settings, fragments, kinds);
        var yaml = ComposeYaml.Serialize(model);
        await File.WriteAllTextAsync(layout.ComposeFile, yaml, ct);
        Directory.CreateDirectory(options.ResultsDirectory);
        await File.WriteAllTextAsync(Path.Combine(options.ResultsDirectory, "docker-compose.yml"), yaml, ct);
    }

    /// <summary>Starts the containers (no waiting on the nodes); returns each node's container id by node name.</summary>
    public async Task<IReadOnlyDictionary<string, string>> UpAsync(CancellationToken ct = default)
    {
        Started = true;
        await compose.UpAsync(
            options.ProjectName,
            layout.ComposeFile,
            model ?? throw new InvalidOperationException("prepare the topology first"),
            ct
        );
        Containers = (await engine.ListContainersAsync(ProjectFilter, ct)).ToDictionary(
            c => c.Labels[ComposeGenerator.NodeLabel],
            c => c.Id
        );
        return Containers;
    }

    /// <summary>The topology's containers that ran and exited (node name → id), e.g. after a start failed.</summary>
    public async Task<IReadOnlyDictionary<string, string>> ExitedAsync(CancellationToken ct = default) =>
        (await engine.ListContainersAsync(ProjectFilter, ct))
            .Where(c => c.State is "exited" or "dead" && c.Labels.ContainsKey(ComposeGenerator.NodeLabel))
            .ToDictionary(c => c.Labels[ComposeGenerator.NodeLabel], c => c.Id);

    /// <summary>Each started container's id by node name (bitcoind included).</summary>
    public IReadOnlyDictionary<string, string> Containers { get; private set; } = new Dictionary<string, string>();

    /// <summary>The label filter of this topology's containers.</summary>
    public string ProjectFilter => $"{RunLabels.ComposeProject}={options.ProjectName}";

    /// <summary>compose down, then whatever compose left removed by label, then the run folder; each step runs whatever the one before did.</summary>
    public async Task TearDownAsync(Func<string, Func<Task>, Task> attempt)
    {
        await attempt(
            "take the topology down",
            async () =>
            {
                using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(25));
                try
                {
                    await compose.DownAsync(options.ProjectName, layout.ComposeFile, timeout.Token);
                }
                catch (Exception e) when (e is OperationCanceledException or TimeoutException)
                {
                    progress.Info("taking the topology down took too long; removing by label");
                }
                catch (Exception e) when (e is InvalidOperationException or DockerApiException)
                {
                    progress.Info($"{e.Message}; removing by label");
                }
            }
        );
        // Whatever compose left (it was killed, or an older compose): remove by label.
        await attempt(
            "remove the containers by label",
            async () =>
            {
                using var sweepTimeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
                await new ResourceSweeper(engine).RemoveAsync(ProjectFilter, sweepTimeout.Token);
            }
        );
        try
        {
            Directory.Delete(layout.Root, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            progress.Info($"could not remove {layout.Root}: {e.Message}");
        }
    }
}
