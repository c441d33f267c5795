using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A run's Docker resources on one engine, found by a label filter: its run label (<see cref="Of"/>), or a label a test
/// puts on everything it makes so its checks and sweeps see nothing else on a shared engine. The one way tests list
/// them, check none is left, and remove them (with the harness's own <see cref="ResourceSweeper"/>).
/// </summary>
internal sealed class RunResources(DockerEngine engine, string labelFilter)
{
    /// <summary>"key" or "key=value", as the engine's label filter takes it.</summary>
    public string LabelFilter { get; } = labelFilter;

    /// <summary>A run's resources: those labelled <c>lnbench.run=RUN</c>.</summary>
    public static RunResources Of(DockerEngine engine, string runId) => new(engine, $"{RunLabels.Run}={runId}");

    /// <summary>Containers, running or not.</summary>
    public Task<IReadOnlyList<ContainerSummary>> ContainersAsync(CancellationToken ct = default) =>
        engine.ListContainersAsync(LabelFilter, ct);

    public Task<IReadOnlyList<string>> NetworksAsync(CancellationToken ct = default) =>
        engine.ListNetworksAsync(LabelFilter, ct);

    public Task<IReadOnlyList<string>> VolumesAsync(CancellationToken ct = default) =>
        engine.ListVolumesAsync(LabelFilter, ct);

    /// <summary>Swarm services; an engine that is no swarm manager has none (it answers 503 to the question).</summary>
    public Task<IReadOnlyList<ServiceSummary>> ServicesAsync(CancellationToken ct = default) =>
        IfManagerAsync(() => engine.Swarm.ListServicesAsync(LabelFilter, ct));

    /// <summary>Swarm secrets; an engine that is no swarm manager has none.</summary>
    public Task<IReadOnlyList<SecretSummary>> SecretsAsync(CancellationToken ct = default) =>
        IfManagerAsync(() => engine.Swarm.ListSecretsAsync(LabelFilter, ct));

    /// <summary>Fails the test, naming what is left, if any service, container, network, secret or volume has the label.</summary>
    public async Task AssertNoneLeftAsync(CancellationToken ct = default)
    {
        var left = new List<string>();
        Add(left, "services", (await ServicesAsync(ct)).Select(s => s.Name));
        Add(left, "containers", (await ContainersAsync(ct)).Select(c => $"{c.Name} ({c.State})"));
        Add(left, "networks", await NetworksAsync(ct));
        Add(left, "secrets", (await SecretsAsync(ct)).Select(s => s.Name));
        Add(left, "volumes", await VolumesAsync(ct));
        Assert.True(left.Count == 0, $"left labelled {LabelFilter}: {string.Join("; ", left)}");
    }

    /// <summary>Removes everything with the label, as the harness's sweep does; returns how many resources it removed.</summary>
    public Task<int> RemoveAsync(CancellationToken ct = default) =>
        new ResourceSweeper(engine).RemoveAsync(LabelFilter, ct);

    private static void Add(List<string> left, string kind, IEnumerable<string> names)
    {
        var list = names.ToList();
        if (list.Count > 0)
        {
            left.Add($"{kind} {string.Join(", ", list)}");
        }
    }

    private static async Task<IReadOnlyList<T>> IfManagerAsync<T>(Func<Task<IReadOnlyList<T>>> list)
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
