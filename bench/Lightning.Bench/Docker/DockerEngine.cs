using Docker.DotNet.Models;
using Version = System.Version;

namespace Lightning.Bench.Docker;

/// <summary>
/// The harness's Docker engine: Docker.DotNet's client behind one connection that agrees the API version with the engine
/// and times every call (<see cref="EngineConnection"/>), with the calls grouped by what they act on (containers, images,
/// networks, volumes, events; a swarm manager's calls under <see cref="Swarm"/>). Callers see one object with the calls they make.
/// </summary>
internal sealed class DockerEngine : IDisposable
{
    /// <summary>How long an ordinary call may take before the engine counts as not answering.</summary>
    public static readonly TimeSpan DefaultRequestTimeout = TimeSpan.FromSeconds(60);

    private readonly EngineConnection connection;
    private readonly EngineContainers containers;
    private readonly EngineExec exec;
    private readonly EngineImages images;
    private readonly EngineNetworks networks;
    private readonly EngineVolumes volumes;
    private readonly EngineEvents events;
    private readonly EngineSwarm swarm;

    public DockerEngine(DockerEndpoint? endpoint = null, TimeSpan? requestTimeout = null)
    {
        connection = new EngineConnection(
            endpoint ?? DockerEndpoint.Resolve(),
            requestTimeout ?? DefaultRequestTimeout
        );
        containers = new EngineContainers(connection);
        exec = new EngineExec(connection);
        images = new EngineImages(connection);
        networks = new EngineNetworks(connection);
        volumes = new EngineVolumes(connection);
        events = new EngineEvents(connection);
        swarm = new EngineSwarm(connection);
    }

    /// <summary>A client for a given host string, e.g. "unix:///run/user/1000/docker.sock".</summary>
    public DockerEngine(string host, TimeSpan? requestTimeout = null)
        : this(new DockerEndpoint(host, "the caller"), requestTimeout) { }

    public DockerEndpoint Endpoint => connection.Endpoint;

    public string Host => connection.Host;

    /// <summary>The API version agreed with the engine (e.g. 1.41), once a call has been made.</summary>
    public Version? ApiVersion => connection.ApiVersion;

    /// <inheritdoc cref="EngineConnection.GetVersionAsync"/>
    public Task<string> GetVersionAsync(CancellationToken ct = default) => connection.GetVersionAsync(ct);

    public Task<IReadOnlyList<ContainerSummary>> ListContainersAsync(
        string labelFilter,
        CancellationToken ct = default
    ) => containers.ListAsync(labelFilter, ct);

    /// <inheritdoc cref="EngineContainers.InspectAsync"/>
    public Task<ContainerDetails?> InspectContainerAsync(string idOrName, CancellationToken ct = default) =>
        containers.InspectAsync(idOrName, ct);

    /// <inheritdoc cref="EngineContainers.GetLogsAsync"/>
    public Task<string> GetLogsAsync(string idOrName, int tail, CancellationToken ct = default) =>
        containers.GetLogsAsync(idOrName, tail, ct);

    /// <inheritdoc cref="EngineContainers.RemoveAsync"/>
    public Task RemoveContainerAsync(string id, CancellationToken ct = default) => containers.RemoveAsync(id, ct);

    /// <inheritdoc cref="EngineContainers.CreateAsync(string, CreateContainerParameters, CancellationToken)"/>
    public Task<string> CreateContainerAsync(
        string name,
        CreateContainerParameters parameters,
        CancellationToken ct = default
    ) => containers.CreateAsync(name, parameters, ct);

    /// <inheritdoc cref="EngineContainers.StartAsync"/>
    public Task StartContainerAsync(string id, CancellationToken ct = default) => containers.StartAsync(id, ct);

    /// <inheritdoc cref="EngineContainers.WaitAsync"/>
    public Task StopContainerAsync(string id, TimeSpan grace, CancellationToken ct = default) =>
        containers.StopAsync(id, grace, ct);

    public Task<long> WaitContainerAsync(string id, TimeSpan timeout, CancellationToken ct = default) =>
        containers.WaitAsync(id, timeout, ct);

    /// <inheritdoc cref="EngineExec.RunAsync"/>
    public Task<(long ExitCode, string Output)> ExecAsync(
        string container,
        IReadOnlyList<string> command,
        string? user,
        TimeSpan timeout,
        CancellationToken ct = default
    ) => exec.RunAsync(container, command, user, timeout, ct);

    /// <inheritdoc cref="EngineContainers.RunToCompletionAsync"/>
    public Task<(long ExitCode, string Output)> RunToCompletionAsync(
        string image,
        IReadOnlyList<string> entrypoint,
        IReadOnlyList<string> command,
        IReadOnlyDictionary<string, string> labels,
        TimeSpan timeout,
        CancellationToken ct = default,
        IReadOnlyList<string>? binds = null,
        IReadOnlyDictionary<string, string>? environment = null,
        string? user = null,
        bool init = false,
        int outputLines = 50
    ) =>
        containers.RunToCompletionAsync(
            image,
            entrypoint,
            command,
            labels,
            timeout,
            ct,
            binds,
            environment,
            user,
            init,
            outputLines
        );

    /// <inheritdoc cref="EngineImages.InspectAsync"/>
    public Task<ImageDetails?> InspectImageAsync(string image, CancellationToken ct = default) =>
        images.InspectAsync(image, ct);

    /// <inheritdoc cref="EngineImages.ImportAsync"/>
    public Task ImportImageAsync(
        Stream tar,
        string repository,
        string tag,
        IReadOnlyList<string> changes,
        CancellationToken ct = default
    ) => images.ImportAsync(tar, repository, tag, changes, ct);

    /// <inheritdoc cref="EngineImages.ListTaggedAsync"/>
    public Task<IReadOnlyList<string>> ListTaggedImagesAsync(string labelFilter, CancellationToken ct = default) =>
        images.ListTaggedAsync(labelFilter, ct);

    /// <inheritdoc cref="EngineImages.ListAsync"/>
    public Task<IReadOnlyList<ImageSummary>> ListImagesAsync(string reference, CancellationToken ct = default) =>
        images.ListAsync(reference, ct);

    /// <inheritdoc cref="EngineImages.TryRemoveAsync"/>
    public Task<bool> TryRemoveImageAsync(string name, CancellationToken ct = default) =>
        images.TryRemoveAsync(name, ct);

    /// <inheritdoc cref="EngineImages.PullAsync"/>
    public Task PullImageAsync(string image, CancellationToken ct = default, TimeSpan? idle = null) =>
        images.PullAsync(image, ct, idle);

    public Task<IReadOnlyList<string>> ListNetworksAsync(string labelFilter, CancellationToken ct = default) =>
        networks.ListAsync(labelFilter, ct);

    /// <inheritdoc cref="EngineNetworks.CreateAsync"/>
    public Task<string> CreateNetworkAsync(
        string name,
        IReadOnlyDictionary<string, string> labels,
        CancellationToken ct = default
    ) => networks.CreateAsync(name, labels, ct);

    /// <inheritdoc cref="EngineNetworks.ListLabelledAsync"/>
    public Task<IReadOnlyList<LabelledResource>> ListLabelledNetworksAsync(
        string labelFilter,
        CancellationToken ct = default
    ) => networks.ListLabelledAsync(labelFilter, ct);

    /// <inheritdoc cref="EngineNetworks.FindAsync"/>
    public Task<string?> FindNetworkAsync(string name, CancellationToken ct = default) => networks.FindAsync(name, ct);

    /// <inheritdoc cref="EngineNetworks.CreateOverlayAsync"/>
    public Task<string> CreateOverlayNetworkAsync(
        string name,
        IReadOnlyDictionary<string, string> labels,
        CancellationToken ct = default
    ) => networks.CreateOverlayAsync(name, labels, ct);

    /// <inheritdoc cref="EngineNetworks.RemoveAsync"/>
    public Task RemoveNetworkAsync(string id, CancellationToken ct = default) => networks.RemoveAsync(id, ct);

    public Task<IReadOnlyList<string>> ListVolumesAsync(string labelFilter, CancellationToken ct = default) =>
        volumes.ListAsync(labelFilter, ct);

    /// <inheritdoc cref="EngineVolumes.ListLabelledAsync"/>
    public Task<IReadOnlyList<LabelledResource>> ListLabelledVolumesAsync(
        string labelFilter,
        CancellationToken ct = default
    ) => volumes.ListLabelledAsync(labelFilter, ct);

    /// <inheritdoc cref="EngineVolumes.RemoveAsync"/>
    public Task RemoveVolumeAsync(string name, CancellationToken ct = default) => volumes.RemoveAsync(name, ct);

    /// <inheritdoc cref="EngineEvents.WatchDeathsAsync"/>
    public Task WatchDeathsAsync(string labelFilter, Func<string, Task> onDie, CancellationToken ct) =>
        events.WatchDeathsAsync(labelFilter, onDie, ct);

    /// <summary>The swarm's calls: state, init and leave, nodes, services, tasks, secrets.</summary>
    public EngineSwarm Swarm => swarm;

    public void Dispose() => connection.Dispose();
}
