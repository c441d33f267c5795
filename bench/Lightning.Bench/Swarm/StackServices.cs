using Docker.DotNet.Models;
using Lightning.Bench.Compose;

namespace Lightning.Bench.Swarm;

/// <summary>
/// A pure function: a stack file's model → the services `docker stack deploy` would create, for the Engine API (the API
/// has no stack object: a stack is its services labelled <see cref="NamespaceLabel"/>, named STACK_SERVICE, so
/// `docker stack ls`, `ps` and `rm` see them). It reads what <see cref="StackGenerator"/> and
/// <see cref="AgentStackGenerator"/> write; anything a stack cannot carry (ports, privileged, network_mode) is refused
/// with the service's name.
/// </summary>
internal static class StackServices
{
    /// <summary>The label the docker CLI puts on a stack's services, containers, volumes (and networks and secrets it makes).</summary>
    public const string NamespaceLabel = "com.docker.stack.namespace";

    /// <summary>The image a service was deployed from, by name, when its spec pins the image by id.</summary>
    public const string ImageLabel = "com.docker.stack.image";

    public static string ServiceName(string stack, string service) => $"{stack}_{service}";

    /// <param name="secretIds">Secret name → id (the API wants both; the run created them).</param>
    /// <param name="imageIds">Image name → id: a service whose image is here is pinned to that id, so every host runs the
    /// image the check found and no host asks a registry; other images are deployed by name.</param>
    public static IReadOnlyList<ServiceSpec> For(
        string stack,
        ComposeFile file,
        IReadOnlyDictionary<string, string> secretIds,
        IReadOnlyDictionary<string, string>? imageIds = null
    ) =>
        file
            .Services.OrderBy(s => s.Key, StringComparer.Ordinal)
            .Select(s => For(stack, s.Key, s.Value, file, secretIds, imageIds))
            .ToList();

    private static ServiceSpec For(
        string stack,
        string name,
        ComposeService service,
        ComposeFile file,
        IReadOnlyDictionary<string, string> secretIds,
        IReadOnlyDictionary<string, string>? imageIds
    )
    {
        string Refuse(string what) => throw new InvalidOperationException($"stack {stack}, service {name}: {what}");
        if (service.Ports is { Count: > 0 })
        {
            Refuse(
                "a stack publishes no ports (swarm would publish them on every host); reach the service over the run's network"
            );
        }
        if (service.NetworkMode is not null || service.Privileged == true || service.SecurityOpt is { Count: > 0 })
        {
            Refuse("network_mode, privileged and security_opt have no swarm service equivalent");
        }
        var image = service.Image ?? Refuse("no image");
        var deploy = service.Deploy ?? new ComposeDeploy();
        var serviceLabels = new Dictionary<string, string>(deploy.Labels ?? new()) { [NamespaceLabel] = stack };
        var containerLabels = new Dictionary<string, string>(service.Labels ?? new()) { [NamespaceLabel] = stack };
        if (imageIds?.GetValueOrDefault(image) is { } id)
        {
            serviceLabels[ImageLabel] = image;
            image = id;
        }
        var container = new ContainerSpec
        {
            Image = image,
            Labels = containerLabels,
            // A service's Command is the image's entrypoint and Args its command, as `docker stack deploy` maps them.
            Command = service.Entrypoint?.ToList(),
            Args = service.Command?.ToList(),
            Env = service.Environment?.Select(e => $"{e.Key}={e.Value}").ToList(),
            User = service.User,
            Init = service.Init,
            CapabilityAdd = service.CapAdd?.ToList(),
            Sysctls = service.Sysctls is null ? null : new Dictionary<string, string>(service.Sysctls),
            StopGracePeriod = service.StopGracePeriod is { } grace ? EngineComposeRunner.Duration(name, grace) : null,
            Mounts = (service.Volumes ?? []).Select(v => Mount(stack, name, v, file)).ToList(),
            Secrets = (service.Secrets ?? [])
                .Select(s => new SecretReference
                {
                    SecretName = SecretName(s.Source ?? Refuse("a secret without a source"), file),
                    SecretID =
                        secretIds.GetValueOrDefault(SecretName(s.Source!, file))
                        ?? Refuse($"secret {SecretName(s.Source!, file)} does not exist: the run creates it first"),
                    File = new SecretReferenceFileTarget
                    {
                        Name = s.Target ?? s.Source!,
                        UID = s.Uid ?? "0",
                        GID = s.Gid ?? "0",
                        Mode = (uint)(s.Mode ?? 292),
                    },
                })
                .ToList(),
        };
        var restart = deploy.RestartPolicy;
        return new ServiceSpec
        {
            Name = ServiceName(stack, name),
            Labels = serviceLabels,
            Mode =
                deploy.Mode == "global"
                    ? new ServiceMode { Global = new GlobalService() }
                    : new ServiceMode
                    {
                        Replicated = new ReplicatedService { Replicas = (ulong)(deploy.Replicas ?? 1) },
                    },
            EndpointSpec = deploy.EndpointMode is { } endpoint ? new EndpointSpec { Mode = endpoint } : null,
            TaskTemplate = new TaskSpec
            {
                ContainerSpec = container,
                RestartPolicy = restart is null
                    ? null
                    : new SwarmRestartPolicy
                    {
                        Condition = restart.Condition,
                        MaxAttempts = restart.MaxAttempts is { } attempts ? (ulong)attempts : null,
                    },
                Placement = deploy.Placement?.Constraints is { Count: > 0 } constraints
                    ? new Placement { Constraints = constraints.ToList() }
                    : null,
                Networks = (service.Networks ?? new())
                    .Select(n => new NetworkAttachmentConfig
                    {
                        Target = file.Networks?.GetValueOrDefault(n.Key) is { External: true, Name: { } external }
                            ? external
                            : Refuse(
                                $"network {n.Key} is not an external network of the file (a run creates its network)"
                            ),
                        Aliases = n.Value.Aliases?.ToList(),
                    })
                    .ToList(),
            },
        };
    }

    private static string SecretName(string source, ComposeFile file) =>
        file.Secrets?.GetValueOrDefault(source)?.Name ?? source;

    /// <summary>"VOLUME:TARGET[:ro]" of a named volume of the file, or "/HOST:TARGET[:ro]", a bind mount.</summary>
    private static Mount Mount(string stack, string service, string volume, ComposeFile file)
    {
        var parts = volume.Split(':');
        if (parts.Length is < 2 or > 3 || (parts.Length == 3 && parts[2] is not ("ro" or "rw")))
        {
            throw new InvalidOperationException(
                $"stack {stack}, service {service}: volume \"{volume}\" is not SOURCE:TARGET[:ro|rw]"
            );
        }
        var readOnly = parts.Length == 3 && parts[2] == "ro";
        if (Path.IsPathRooted(parts[0]))
        {
            return new Mount
            {
                Type = "bind",
                Source = parts[0],
                Target = parts[1],
                ReadOnly = readOnly,
            };
        }
        var named =
            file.Volumes?.GetValueOrDefault(parts[0])
            ?? throw new InvalidOperationException(
                $"stack {stack}, service {service}: volume {parts[0]} is not a volume of the file"
            );
        return new Mount
        {
            Type = "volume",
            Source = named.Name ?? $"{stack}_{parts[0]}",
            Target = parts[1],
            ReadOnly = readOnly,
            // Each host's engine creates the volume when a task there first mounts it, with these labels: a sweep finds it by them.
            VolumeOptions = new VolumeOptions
            {
                Labels = new Dictionary<string, string>(named.Labels ?? new()) { [NamespaceLabel] = stack },
            },
        };
    }
}
