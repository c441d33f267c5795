using Lightning.Bench.Docker;
using Lightning.Bench.Waiting;

namespace Lightning.Bench.Cleanup;

/// <summary>
/// Removes a run's Docker resources by label: a run's own at the end, and runs whose harness died before. On a swarm
/// manager that includes the run's services (first, waiting until their containers are gone) and secrets; a swarm's
/// volumes and containers are each host's own, and this engine reaches only its own host's (see docs/swarm.md).
/// </summary>
internal sealed class ResourceSweeper(DockerEngine engine)
{
    /// <summary>How long a sweep waits for removed services' containers to go before it removes what they used.</summary>
    public static readonly TimeSpan ServiceRemovalTimeout = TimeSpan.FromSeconds(30);

    /// <summary>How long a sweep waits for removed networks to leave the engine's list.</summary>
    public static readonly TimeSpan NetworkRemovalTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Removes everything labelled with this label filter (e.g. "lnbench.run=abc"); returns what it removed.</summary>
    public async Task<int> RemoveAsync(string labelFilter, CancellationToken ct = default)
    {
        // Services first (a swarm manager's; anywhere else the engine answers that it is none): their tasks' containers
        // are removed by the swarm, and the network, secrets and volume they use can only go after them.
        var services = await ListIfManagerAsync(() => engine.Swarm.ListServicesAsync(labelFilter, ct));
        await ServiceRemoval.RemoveAsync(
            engine,
            services,
            labelFilter,
            $"the services labelled {labelFilter}",
            ServiceRemovalTimeout,
            ct
        );
        var removed = services.Count;
        // Containers all at once (each removal kills its container and waits for it); then what they were attached to.
        var containers = await engine.ListContainersAsync(labelFilter, ct);
        await Task.WhenAll(containers.Select(c => engine.RemoveContainerAsync(c.Id, ct)));
        removed += containers.Count;
        var networks = await engine.ListNetworksAsync(labelFilter, ct);
        foreach (var network in networks)
        {
            await engine.RemoveNetworkAsync(network, ct);
            removed++;
        }
        // A swarm's overlay network can stay listed for a moment after its removal was accepted: wait until it is not
        // (at most NetworkRemovalTimeout; one still listed then is left to the next sweep).
        if (networks.Count > 0)
        {
            try
            {
                await Wait.UntilAsync(
                    $"the networks labelled {labelFilter} to leave the engine's list",
                    async t =>
                    {
                        var left = await engine.ListNetworksAsync(labelFilter, t);
                        return left.Count == 0 ? WaitState.Met() : WaitState.NotYet($"{left.Count} still listed");
                    },
                    NetworkRemovalTimeout,
                    ct,
                    TimeSpan.FromMilliseconds(100)
                );
            }
            catch (WaitTimeoutException) { }
        }
        foreach (var secret in await ListIfManagerAsync(() => engine.Swarm.ListSecretsAsync(labelFilter, ct)))
        {
            await engine.Swarm.RemoveSecretAsync(secret.Id, ct);
            removed++;
        }
        foreach (var volume in await engine.ListVolumesAsync(labelFilter, ct))
        {
            await engine.RemoveVolumeAsync(volume, ct);
            removed++;
        }
        return removed;
    }

    /// <summary>
    /// Runs whose owning harness is gone (killed with -9, a crash): their resources are removed. A run is found by
    /// whatever of it is left (containers, services, secrets, networks, volumes). Only runs started on this machine are
    /// judged by their process id; another machine's runs on a shared engine are left alone, and so are runs without an
    /// owner machine on an engine that is not local.
    /// </summary>
    /// <param name="scope">Only resources with this label are looked at ("key" or "key=value"; every run's by default).</param>
    public async Task<IReadOnlyList<string>> RemoveStaleRunsAsync(
        CancellationToken ct = default,
        string scope = RunLabels.Run
    )
    {
        var labelled = new List<IReadOnlyDictionary<string, string>>();
        labelled.AddRange((await engine.ListContainersAsync(scope, ct)).Select(c => c.Labels));
        labelled.AddRange(
            (await ListIfManagerAsync(() => engine.Swarm.ListServicesAsync(scope, ct))).Select(s => s.Labels)
        );
        labelled.AddRange(
            (await ListIfManagerAsync(() => engine.Swarm.ListSecretsAsync(scope, ct))).Select(s => s.Labels)
        );
        labelled.AddRange((await engine.ListLabelledNetworksAsync(scope, ct)).Select(n => n.Labels));
        labelled.AddRange((await engine.ListLabelledVolumesAsync(scope, ct)).Select(v => v.Labels));
        var stale = new List<string>();
        foreach (var run in labelled.Where(l => l.ContainsKey(RunLabels.Run)).GroupBy(l => l[RunLabels.Run]))
        {
            var labels = run.FirstOrDefault(l => l.ContainsKey(RunLabels.OwnerPid)) ?? run.First();
            var host =
                labels.GetValueOrDefault(RunLabels.OwnerHost)
                ?? (engine.Endpoint.IsLocal ? OwnerProcess.Current.Host : null);
            if (
                host is null
                || !int.TryParse(labels.GetValueOrDefault(RunLabels.OwnerPid), out var pid)
                || !new OwnerProcess(host, pid).IsGone
            )
            {
                continue;
            }
            await RemoveAsync($"{RunLabels.Run}={run.Key}", ct);
            stale.Add(run.Key);
        }
        return stale;
    }

    /// <summary>A manager's list; none on an engine that is no swarm manager (it answers 503).</summary>
    private static async Task<IReadOnlyList<T>> ListIfManagerAsync<T>(Func<Task<IReadOnlyList<T>>> list)
    {
        try
        {
            return await list();
        }
        catch (DockerApiException e) when (EngineSwarm.NotManager(e))
        {
            return [];
        }
    }
}
