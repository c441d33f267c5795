using Lightning.Bench.Cleanup;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A run on a swarm, as a handle: started, it has checked the engine is a manager and every host has each image with
/// one id, and has created the run's overlay network and agents' token; it deploys and removes topology stacks (each
/// with its configuration secrets); disposing it (the run's end, or Ctrl+C) removes what is left of its stacks and then
/// everything labelled with the run. Disposing twice is safe. After kill -9 the next run's
/// <see cref="ResourceSweeper.RemoveStaleRunsAsync"/> finds the same resources by their owner labels.
/// </summary>
internal sealed class SwarmRun : IAsyncDisposable
{
    /// <summary>How long the final sweep may take.</summary>
    public static readonly TimeSpan SweepTimeout = TimeSpan.FromSeconds(60);

    /// <summary>How long the image check waits for every host to answer.</summary>
    public static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(60);

    private readonly DockerEngine engine;
    private readonly Dictionary<string, SwarmStack> stacks = new();
    private string? harnessImage;
    private int disposed;

    private SwarmRun(
        DockerEngine engine,
        string runId,
        IReadOnlyDictionary<string, string> labels,
        SwarmManager manager,
        IReadOnlyDictionary<string, string> imageIds
    )
    {
        this.engine = engine;
        RunId = runId;
        Labels = labels;
        Manager = manager;
        ImageIds = imageIds;
    }

    public string RunId { get; }

    public IReadOnlyDictionary<string, string> Labels { get; }

    public SwarmManager Manager { get; }

    /// <summary>Image → its id, the same on every host: what the stacks are deployed with.</summary>
    public IReadOnlyDictionary<string, string> ImageIds { get; }

    /// <summary>A label filter limiting the end's work volume sweep (tests); null: every run's work volumes not kept.</summary>
    public string? SweepScope { get; private init; }

    /// <summary>
    /// Checks the manager and the images, then creates the run's network and token secret. Nothing is created when a
    /// check fails; a failure while creating removes what was created.
    /// </summary>
    /// <param name="sweepScope">See <see cref="SweepScope"/>.</param>
    /// <param name="onlyHost">--swarm-host: the one host of the swarm the pairs go to, or null for all.</param>
    /// <param name="placements">The values of --place NODE=VALUE: each names the hosts labelled lnbench.placement=VALUE, which the run then uses too.</param>
    public static async Task<SwarmRun> StartAsync(
        DockerEngine engine,
        string runId,
        IReadOnlyDictionary<string, string> labels,
        IReadOnlyList<string> images,
        byte[] agentToken,
        CancellationToken ct = default,
        string? sweepScope = null,
        string? onlyHost = null,
        IEnumerable<string>? placements = null
    )
    {
        var manager = await SwarmManager.RequireAsync(engine, ct);
        if (onlyHost is not null)
        {
            manager = manager.Only(onlyHost);
        }
        manager = manager.Placing(placements ?? []);
        var ids = await SwarmImageCheck.RequireSameAsync(
            engine,
            manager,
            images,
            new ImageJobProbe(engine, labels, ProbeTimeout),
            ct
        );
        var run = new SwarmRun(engine, runId, labels, manager, ids) { SweepScope = sweepScope };
        try
        {
            var resources = new SwarmRunResources(engine);
            foreach (var resource in SwarmResources.ForRun(runId, labels))
            {
                await resources.CreateAsync(
                    resource,
                    resource.Kind == SwarmResource.SecretKind ? agentToken : null,
                    ct
                );
            }
        }
        catch
        {
            await run.DisposeAsync();
            throw;
        }
        return run;
    }

    /// <summary>
    /// Creates a topology's configuration secrets (each labelled with the run and the stack), generates its stack file
    /// and deploys it on <paramref name="settings"/>' host; returns the stack and the file (kept with the results).
    /// </summary>
    /// <param name="configOf">A service's configuration with the run's credentials (bitcoind's rpcauth, a node's bitcoind login).</param>
    public async Task<(SwarmStack Stack, ComposeFile File)> DeployTopologyAsync(
        TopologySpec topology,
        StackSettings settings,
        ComposeFragments fragments,
        Func<string, byte[]> configOf,
        NodeKindCatalog? kinds = null,
        CancellationToken ct = default
    )
    {
        ObjectDisposedException.ThrowIf(disposed == 1, this);
        var file = StackGenerator.Generate(topology, settings, fragments, kinds);
        var stackLabels = new Dictionary<string, string>(Labels)
        {
            [StackServices.NamespaceLabel] = settings.StackName,
        };
        var resources = new SwarmRunResources(engine);
        foreach (var secret in SwarmResources.ForTopology(topology, settings.StackName, stackLabels))
        {
            await resources.CreateAsync(secret, configOf(secret.Labels[ComposeGenerator.NodeLabel]), ct);
        }
        var stack = await SwarmStack.DeployAsync(engine, settings.StackName, file, ImageIds, ct);
        lock (stacks)
        {
            stacks[stack.Name] = stack;
        }
        return (stack, file);
    }

    /// <summary>
    /// Deploys the run's agents: one per host (a global service of <see cref="AgentStackGenerator"/>'s stack) from the
    /// harness image, on the run's overlay, with the run's token; removed with the run.
    /// </summary>
    /// <param name="owner">uid:gid the node folders they make are given (the nodes' user), or null.</param>
    public async Task<SwarmStack> DeployAgentsAsync(
        string harnessImage,
        string? owner,
        CancellationToken ct = default,
        bool profiles = false
    )
    {
        ObjectDisposedException.ThrowIf(disposed == 1, this);
        var name = SwarmNames.AgentStack(RunId);
        var file = AgentStackGenerator.Generate(
            new AgentStackSettings(
                RunId,
                harnessImage,
                HarnessImage.Entrypoint,
                owner,
                Labels,
                profiles,
                AgentStackSettings.ForHosts(
                    Manager.Hosts.Select(h => h.Hostname).ToList(),
                    Manager.Schedulable.Select(h => h.Hostname).ToList()
                )
            )
        );
        var stack = await SwarmStack.DeployAsync(engine, name, file, ImageIds, ct);
        lock (stacks)
        {
            stacks[stack.Name] = stack;
        }
        // Its end sweeps every host's work volumes with the same image.
        this.harnessImage = harnessImage;
        return stack;
    }

    /// <summary>Removes a topology's stack (until its containers are gone), then its secrets.</summary>
    public async Task RemoveTopologyAsync(string stackName, CancellationToken ct = default)
    {
        SwarmStack? stack;
        lock (stacks)
        {
            stacks.Remove(stackName, out stack);
        }
        if (stack is not null)
        {
            await stack.DisposeAsync();
        }
        else
        {
            await SwarmStack.RemoveAsync(engine, stackName, SwarmStack.RemovalTimeout, ct);
        }
        foreach (var secret in await engine.Swarm.ListSecretsAsync($"{StackServices.NamespaceLabel}={stackName}", ct))
        {
            if (secret.Labels.GetValueOrDefault(RunLabels.Run) == RunId)
            {
                await engine.Swarm.RemoveSecretAsync(secret.Id, ct);
            }
        }
    }

    /// <summary>
    /// Every stack still deployed, then everything labelled with the run (network, secrets, this host's work volume),
    /// then, when its agents were deployed, the work volumes of every host (<see cref="WorkVolumeSweep"/>).
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref disposed, 1) == 1)
        {
            return;
        }
        List<SwarmStack> left;
        lock (stacks)
        {
            left = stacks.Values.ToList();
            stacks.Clear();
        }
        var errors = new List<Exception>();
        await Task.WhenAll(
            left.Select(async stack =>
            {
                try
                {
                    await stack.DisposeAsync();
                }
                catch (Exception e) when (e is not OutOfMemoryException)
                {
                    lock (errors)
                    {
                        errors.Add(e);
                    }
                }
            })
        );
        // Whatever a stack's removal did, the sweep by label runs: it removes any service left too.
        using (var timeout = new CancellationTokenSource(SweepTimeout))
        {
            await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.Run}={RunId}", timeout.Token);
        }
        if (harnessImage is not null)
        {
            // The work volume on the other hosts: only their engines can remove it, so a job on every host does
            // (WorkVolumeSweep), taking those of any run whose overlay network is gone (this one's, a killed one's).
            try
            {
                using var timeout = new CancellationTokenSource(SweepTimeout);
                var keep = (await engine.ListLabelledNetworksAsync(RunLabels.Run, timeout.Token))
                    .Select(n => n.Labels.GetValueOrDefault(RunLabels.Run))
                    .OfType<string>()
                    .ToHashSet(StringComparer.Ordinal);
                var failed = await WorkVolumeSweep.OnEveryHostAsync(
                    engine,
                    harnessImage,
                    keep,
                    Labels,
                    SweepTimeout,
                    SweepScope,
                    timeout.Token
                );
                if (failed.Count > 0)
                {
                    errors.Add(new IOException($"the work volume sweep failed on {string.Join("; ", failed)}"));
                }
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                errors.Add(e);
            }
        }
        if (errors.Count > 0)
        {
            throw new AggregateException($"removing the stacks of run {RunId}", errors);
        }
    }
}
