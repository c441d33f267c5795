using System.Net;
using Docker.DotNet.Models;

namespace Lightning.Bench.Docker;

/// <summary>
/// The swarm through the engine: its state, init and leave (tests make a single-node swarm), nodes, services, tasks and
/// secrets. Services, tasks and secrets are the manager's: a worker answers 503, which <see cref="NotManager"/> recognises.
/// </summary>
internal sealed class EngineSwarm(EngineConnection connection)
{
    public Task<SwarmState> GetStateAsync(CancellationToken ct = default) =>
        connection.CallAsync(
            "report its swarm state",
            async (client, t) =>
            {
                var swarm = (await client.System.GetSystemInfoAsync(t)).Swarm;
                return new SwarmState(
                    swarm?.NodeID ?? "",
                    swarm?.LocalNodeState ?? "inactive",
                    swarm?.ControlAvailable ?? false,
                    string.IsNullOrEmpty(swarm?.Error) ? null : swarm.Error
                );
            },
            ct
        );

    /// <summary>Makes the engine a single-node swarm's manager, listening and advertising on <paramref name="address"/>; returns its node id.</summary>
    public Task<string> InitAsync(string address, CancellationToken ct = default) =>
        connection.CallAsync(
            $"initialise a swarm on {address}",
            (client, t) =>
                client.Swarm.InitSwarmAsync(
                    new SwarmInitParameters { ListenAddr = $"{address}:2377", AdvertiseAddr = address },
                    t
                ),
            ct
        );

    /// <summary>Leaves the swarm (force: a last manager may leave, and the swarm ends with it).</summary>
    public Task LeaveAsync(CancellationToken ct = default) =>
        connection.CallAsync(
            "leave the swarm",
            async (client, t) =>
            {
                await client.Swarm.LeaveSwarmAsync(new SwarmLeaveParameters { Force = true }, t);
                return true;
            },
            ct
        );

    public Task<IReadOnlyList<SwarmNode>> ListNodesAsync(CancellationToken ct = default) =>
        connection.CallAsync(
            "list swarm nodes",
            async (client, t) =>
                (IReadOnlyList<SwarmNode>)
                    (await client.Swarm.ListNodesAsync(t))
                        .Select(n => new SwarmNode(
                            n.ID,
                            n.Description?.Hostname ?? "",
                            n.Spec?.Role ?? "",
                            n.Status?.State ?? "",
                            n.Spec?.Availability ?? "",
                            new Dictionary<string, string>(n.Spec?.Labels ?? new Dictionary<string, string>())
                        ))
                        .ToList(),
            ct
        );

    /// <summary>Creates a service; returns its id.</summary>
    public Task<string> CreateServiceAsync(ServiceSpec spec, CancellationToken ct = default) =>
        connection.CallAsync(
            $"create service {spec.Name}",
            async (client, t) =>
                (await client.Swarm.CreateServiceAsync(new ServiceCreateParameters { Service = spec }, t)).ID ?? "",
            ct
        );

    public Task<IReadOnlyList<ServiceSummary>> ListServicesAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync(
            "list services",
            async (client, t) =>
                (IReadOnlyList<ServiceSummary>)
                    (
                        await client.Swarm.ListServicesAsync(
                            new ServiceListParameters { Filters = EngineFilters.Label(labelFilter) },
                            t
                        )
                    )
                        .Select(s => new ServiceSummary(
                            s.ID,
                            s.Spec?.Name ?? "",
                            new Dictionary<string, string>(s.Spec?.Labels ?? new Dictionary<string, string>())
                        ))
                        .ToList(),
            ct
        );

    /// <summary>Removes a service (one already gone is no error); its tasks are shut down and their containers removed by each node, later.</summary>
    public Task RemoveServiceAsync(string id, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"remove service {id}",
            async (client, t) =>
            {
                await client.Swarm.RemoveServiceAsync(id, t);
                return true;
            },
            ct
        );

    /// <summary>The tasks of one service, every host's; none once the service is gone (the engine then refuses the filter).</summary>
    public async Task<IReadOnlyList<SwarmTask>> ListTasksAsync(string serviceId, CancellationToken ct = default) =>
        await connection.CallIfPresentAsync(
            $"list the tasks of service {serviceId}",
            async (client, t) =>
                (IReadOnlyList<SwarmTask>)
                    (
                        await client.Tasks.ListAsync(
                            new TasksListParameters { Filters = EngineFilters.Of(("service", serviceId)) },
                            t
                        )
                    )
                        .Select(SwarmTask.From)
                        .ToList(),
            ct
        ) ?? [];

    /// <summary>
    /// The last <paramref name="tail"/> lines a service's tasks wrote (stdout and stderr), whichever host they ran on:
    /// the manager asks each task's engine. "(logs unavailable: CODE)" when it cannot.
    /// </summary>
    public Task<string> GetServiceLogsAsync(string service, int tail, CancellationToken ct = default) =>
        connection.CallAsync(
            $"read the logs of service {service}",
            async (client, t) =>
            {
                var parameters = new ServiceLogsParameters
                {
                    ShowStdout = true,
                    ShowStderr = true,
                    Tail = tail.ToString(System.Globalization.CultureInfo.InvariantCulture),
                };
                try
                {
                    using var stream = await client.Swarm.GetServiceLogsAsync(service, false, parameters, t);
                    return await LogText.ReadAsync(stream, t);
                }
                catch (global::Docker.DotNet.DockerApiException e)
                {
                    return $"(logs unavailable: {(int)e.StatusCode})";
                }
            },
            ct
        );

    /// <summary>Every task the manager still holds, whatever its service: a removed service's tasks stay until each host has shut them down.</summary>
    public Task<IReadOnlyList<SwarmTask>> ListAllTasksAsync(CancellationToken ct = default) =>
        connection.CallAsync(
            "list tasks",
            async (client, t) =>
                (IReadOnlyList<SwarmTask>)(await client.Tasks.ListAsync(t)).Select(SwarmTask.From).ToList(),
            ct
        );

    public Task<SwarmNode?> InspectNodeAsync(string id, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"inspect swarm node {id}",
            async (client, t) =>
            {
                var n = await client.Swarm.InspectNodeAsync(id, t);
                return new SwarmNode(
                    n.ID,
                    n.Description?.Hostname ?? "",
                    n.Spec?.Role ?? "",
                    n.Status?.State ?? "",
                    n.Spec?.Availability ?? "",
                    new Dictionary<string, string>(n.Spec?.Labels ?? new Dictionary<string, string>())
                );
            },
            ct
        );

    /// <summary>Creates a secret holding <paramref name="value"/> (kept by the manager only); returns its id.</summary>
    public Task<string> CreateSecretAsync(
        string name,
        IReadOnlyDictionary<string, string> labels,
        byte[] value,
        CancellationToken ct = default
    ) =>
        connection.CallAsync(
            $"create secret {name}",
            async (client, t) =>
                (
                    await client.Secrets.CreateAsync(
                        new SwarmSecretSpec
                        {
                            Name = name,
                            Labels = labels.ToDictionary(),
                            Data = value,
                        },
                        t
                    )
                ).ID,
            ct
        );

    /// <summary>Secrets with this label ("key" or "key=value"): the library lists them all, so the label is matched here.</summary>
    public Task<IReadOnlyList<SecretSummary>> ListSecretsAsync(string labelFilter, CancellationToken ct = default) =>
        connection.CallAsync(
            "list secrets",
            async (client, t) =>
                (IReadOnlyList<SecretSummary>)
                    (await client.Secrets.ListAsync(t))
                        .Select(s => new SecretSummary(
                            s.ID,
                            s.Spec?.Name ?? "",
                            new Dictionary<string, string>(s.Spec?.Labels ?? new Dictionary<string, string>())
                        ))
                        .Where(s => EngineFilters.Matches(s.Labels, labelFilter))
                        .ToList(),
            ct
        );

    /// <summary>Removes a secret (one already gone is no error; one still used by a service is refused by the engine).</summary>
    public Task RemoveSecretAsync(string id, CancellationToken ct = default) =>
        connection.CallIfPresentAsync(
            $"remove secret {id}",
            async (client, t) =>
            {
                await client.Secrets.DeleteAsync(id, t);
                return true;
            },
            ct
        );

    /// <summary>The engine's answer to a manager's call on a node that is not one (a worker, or no swarm at all).</summary>
    public static bool NotManager(DockerApiException e) => e.Status == HttpStatusCode.ServiceUnavailable;
}
