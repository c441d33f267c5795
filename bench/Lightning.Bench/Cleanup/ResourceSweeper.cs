using Lightning.Bench.Docker;

namespace Lightning.Bench.Cleanup;

/// <summary>Removes containers, networks and volumes by label: a run's own at the end, and runs whose harness died before.</summary>
internal sealed class ResourceSweeper(DockerEngine engine)
{
    /// <summary>Removes everything labelled with this label filter (e.g. "lnbench.run=abc"); returns what it removed.</summary>
    public async Task<int> RemoveAsync(string labelFilter, CancellationToken ct = default)
    {
        // Containers all at once (each removal kills its container and waits for it); then what they were attached to.
        var containers = await engine.ListContainersAsync(labelFilter, ct);
        await Task.WhenAll(containers.Select(c => engine.RemoveContainerAsync(c.Id, ct)));
        var removed = containers.Count;
        foreach (var network in await engine.ListNetworksAsync(labelFilter, ct))
        {
            await engine.RemoveNetworkAsync(network, ct);
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
    /// Runs whose owning harness is gone (killed with -9, a crash): their resources are removed. Only runs started on
    /// this machine are judged by their process id; another machine's runs on a shared engine are left alone, and so are
    /// runs without an owner machine on an engine that is not local.
    /// </summary>
    public async Task<IReadOnlyList<string>> RemoveStaleRunsAsync(CancellationToken ct = default)
    {
        var stale = new List<string>();
        var containers = await engine.ListContainersAsync(RunLabels.Run, ct);
        foreach (var run in containers.GroupBy(c => c.Labels[RunLabels.Run]))
        {
            var labels = run.First().Labels;
            var host = labels.GetValueOrDefault(RunLabels.OwnerHost) ?? (engine.Endpoint.IsLocal ? OwnerProcess.Current.Host : null);
            if (host is null || !int.TryParse(labels.GetValueOrDefault(RunLabels.OwnerPid), out var pid) || !new OwnerProcess(host, pid).IsGone)
            {
                continue;
            }
            await RemoveAsync($"{RunLabels.Run}={run.Key}", ct);
            stale.Add(run.Key);
        }
        return stale;
    }
}
