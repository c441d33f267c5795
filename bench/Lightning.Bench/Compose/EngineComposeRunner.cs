using System.Collections.Concurrent;
using System.Globalization;
using System.Text.RegularExpressions;
using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Compose;

/// <summary>
/// Starts a generated compose model through the Engine API, the way compose would: a "PROJECT_default" bridge network
/// (when a service uses it), one container per service named "PROJECT-SERVICE-1" and reachable there by its service
/// name, or on network_mode "bridge" or in another service's network namespace ("service:NAME"), compose's labels (so
/// `docker compose -p PROJECT down` and label sweeps find them), containers created together and started in
/// depends_on order. Down removes them by label, all at once. It covers every key <see cref="ComposeService"/> accepts
/// (fragments cannot carry others), and interpolates variables as compose does (<see cref="ComposeInterpolation"/>).
/// </summary>
internal sealed partial class EngineComposeRunner(DockerEngine engine, Func<string, string?>? variables = null)
    : IComposeRunner
{
    public const string ServiceLabel = "com.docker.compose.service";
    private readonly Func<string, string?> variables = variables ?? Environment.GetEnvironmentVariable;

    public string Version => "Docker engine API (compose model)";

    public static string NetworkName(string project) => $"{project}_default";

    public static string ContainerName(string project, string service) => $"{project}-{service}-1";

    public async Task UpAsync(string project, string file, ComposeFile model, CancellationToken ct = default)
    {
        // Every body is built (and so checked) before anything is created.
        var bodies = model.Services.ToDictionary(s => s.Key, s => CreateBody(project, file, s.Key, s.Value));
        var order = StartOrder(model);
        if (model.Services.Values.Any(s => s.NetworkMode is null))
        {
            var networkLabels = new Dictionary<string, string>(
                model.Networks?.GetValueOrDefault("default")?.Labels ?? new()
            )
            {
                [RunLabels.ComposeProject] = project,
                ["com.docker.compose.network"] = "default",
            };
            await engine.CreateNetworkAsync(NetworkName(project), networkLabels, ct);
        }
        var ids = new ConcurrentDictionary<string, string>();
        async Task CreateAsync(IEnumerable<string> services) =>
            await Task.WhenAll(
                services.Select(async name =>
                    ids[name] = await engine.CreateContainerAsync(ContainerName(project, name), bodies[name], ct)
                )
            );
        // Services that join another's network namespace are created once it exists (their create body names its
        // container by id), while the first layer starts: they never start before their namespace's owner.
        var joiners = model.Services.Where(s => OwnerOf(s.Value) is not null).Select(s => s.Key).ToList();
        await CreateAsync(model.Services.Keys.Except(joiners));
        foreach (var name in joiners)
        {
            bodies[name] = CreateBody(project, file, name, model.Services[name], variables, ids);
        }
        var creatingJoiners = CreateAsync(joiners);
        try
        {
            await StartAsync(order[0]);
        }
        finally
        {
            await creatingJoiners;
        }
        foreach (var layer in order.Skip(1))
        {
            await StartAsync(layer);
        }

        async Task StartAsync(IReadOnlyList<string> layer) =>
            await Task.WhenAll(
                layer.Select(async name =>
                {
                    try
                    {
                        await engine.StartContainerAsync(ids[name], ct);
                    }
                    catch (DockerApiException e)
                    {
                        throw new InvalidOperationException(
                            $"service {name} ({bodies[name].Image}) could not start: {e.Message}",
                            e
                        );
                    }
                })
            );
    }

    public async Task DownAsync(string project, string file, CancellationToken ct = default) =>
        await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.ComposeProject}={project}", ct);

    /// <summary>The services in layers: each layer's services depend only on earlier layers'.</summary>
    public static IReadOnlyList<IReadOnlyList<string>> StartOrder(ComposeFile model)
    {
        var remaining = model.Services.ToDictionary(
            s => s.Key,
            s => (s.Value.DependsOn ?? []).Concat(OwnerOf(s.Value) is { } owner ? [owner] : []).ToHashSet()
        );
        foreach (var (name, needs) in remaining)
        {
            if (needs.FirstOrDefault(n => !model.Services.ContainsKey(n)) is { } unknown)
            {
                throw new InvalidOperationException(
                    $"service {name} depends on {unknown}, which is not a service of the topology"
                );
            }
            if (
                OwnerOf(model.Services[name]) is { } owner
                && model.Services.GetValueOrDefault(owner) is { } joined
                && OwnerOf(joined) is not null
            )
            {
                throw new InvalidOperationException(
                    $"service {name} joins the network namespace of a service that joins another's; join the owner directly"
                );
            }
        }
        var layers = new List<IReadOnlyList<string>>();
        var started = new HashSet<string>();
        while (remaining.Count > 0)
        {
            var layer = remaining
                .Where(s => s.Value.IsSubsetOf(started))
                .Select(s => s.Key)
                .Order(StringComparer.Ordinal)
                .ToList();
            if (layer.Count == 0)
            {
                throw new InvalidOperationException(
                    $"the services' depends_on form a cycle: {string.Join(", ", remaining.Keys)}"
                );
            }
            layers.Add(layer);
            foreach (var name in layer)
            {
                remaining.Remove(name);
                started.Add(name);
            }
        }
        return layers;
    }

    /// <summary>
    /// Checks what of the fragments this runner reads before any container starts (interpolation, ports, grace
    /// periods), so a mistake is one line of bad input, not a failed case.
    /// </summary>
    public static void CheckFragments(ComposeFragments fragments, Func<string, string?>? variables = null)
    {
        foreach (var (file, service) in fragments.Services)
        {
            if (service.NetworkMode is not null)
            {
                throw new InvalidDataException(
                    $"compose fragment {file}: network_mode is set by the harness (every node shares bitcoind's network namespace); remove it"
                );
            }
            var probe = service.Clone();
            probe.Image ??= "image";
            probe.Volumes = null; // the generator sets the mounts
            try
            {
                CreateBody(
                    "check",
                    "/check/docker-compose.yml",
                    "service",
                    probe,
                    variables ?? Environment.GetEnvironmentVariable
                );
            }
            catch (Exception e) when (e is FormatException or InvalidOperationException)
            {
                throw new InvalidDataException($"compose fragment {file}: {e.Message}", e);
            }
        }
    }

    /// <summary>The Engine API create parameters of one service.</summary>
    /// <param name="containers">Containers created so far (service → id), for a network_mode "service:NAME".</param>
    public CreateContainerParameters CreateBody(
        string project,
        string file,
        string name,
        ComposeService service,
        IReadOnlyDictionary<string, string>? containers = null
    ) => CreateBody(project, file, name, service, variables, containers);

    private static CreateContainerParameters CreateBody(
        string project,
        string file,
        string name,
        ComposeService service,
        Func<string, string?> variables,
        IReadOnlyDictionary<string, string>? containers = null
    )
    {
        string Text(string value) => ComposeInterpolation.Apply(value, variables);
        var image = Text(service.Image ?? throw new InvalidOperationException($"service {name} has no image"));
        var labels = (service.Labels ?? new()).ToDictionary(l => l.Key, l => Text(l.Value));
        labels[RunLabels.ComposeProject] = project;
        labels[ServiceLabel] = name;
        labels["com.docker.compose.container-number"] = "1";
        labels["com.docker.compose.oneoff"] = "False";
        labels["com.docker.compose.project.config_files"] = file;
        labels["com.docker.compose.project.working_dir"] = Path.GetDirectoryName(file) ?? "";
        var network = NetworkName(project);
        var host = new HostConfig
        {
            NetworkMode = network,
            Binds = (service.Volumes ?? []).Select(v => Bind(name, Text(v))).ToList(),
            PortBindings = new Dictionary<string, IList<PortBinding>>(),
        };
        var body = new CreateContainerParameters
        {
            Image = image,
            Labels = labels,
            HostConfig = host,
        };
        if (service.NetworkMode is { } mode && Text(mode) == "bridge")
        {
            host.NetworkMode = "bridge";
        }
        else if (service.NetworkMode is { } joined)
        {
            var owner = NetworkOwner(name, Text(joined));
            if (service.Ports is { Count: > 0 })
            {
                throw new InvalidOperationException(
                    $"service {name} shares {owner}'s network namespace, so it cannot publish ports; publish them on {owner}"
                );
            }
            host.NetworkMode = $"container:{containers?.GetValueOrDefault(owner) ?? ContainerName(project, owner)}";
        }
        else
        {
            body.NetworkingConfig = new NetworkingConfig
            {
                EndpointsConfig = new Dictionary<string, EndpointSettings>
                {
                    [network] = new EndpointSettings { Aliases = [name] },
                },
            };
        }
        if (service.User is { } user)
        {
            body.User = Text(user);
        }
        if (service.Entrypoint is { } entrypoint)
        {
            body.Entrypoint = entrypoint.Select(Text).ToList();
        }
        if (service.Command is { } command)
        {
            body.Cmd = command.Select(Text).ToList();
        }
        if (service.Environment is { Count: > 0 } environment)
        {
            body.Env = environment.Select(e => $"{e.Key}={Text(e.Value)}").ToList();
        }
        if (service.StopGracePeriod is { } grace)
        {
            body.StopTimeout = TimeSpan.FromSeconds(Math.Ceiling(Duration(name, Text(grace)).TotalSeconds));
        }
        if (service.Ports is { Count: > 0 } ports)
        {
            var bindings = ports.Select(p => Port(name, Text(p))).ToList();
            body.ExposedPorts = bindings
                .Select(b => b.ContainerPort)
                .Distinct()
                .ToDictionary(p => p, _ => default(EmptyStruct));
            host.PortBindings = bindings
                .GroupBy(b => b.ContainerPort)
                .ToDictionary(
                    g => g.Key,
                    g =>
                        (IList<PortBinding>)
                            g.Select(b => new PortBinding { HostIP = b.HostIp, HostPort = b.HostPort }).ToList()
                );
        }
        if (service.Init is { } init)
        {
            host.Init = init;
        }
        if (service.Privileged is { } privileged)
        {
            host.Privileged = privileged;
        }
        if (service.CapAdd is { Count: > 0 } caps)
        {
            host.CapAdd = caps.Select(Text).ToList();
        }
        if (service.SecurityOpt is { Count: > 0 } security)
        {
            host.SecurityOpt = security.Select(Text).ToList();
        }
        if (service.ShmSize is { } shm)
        {
            host.ShmSize = Bytes(name, Text(shm));
        }
        // Compose v2 lists (and so takes down) only containers with a config hash; compose hashes the service's
        // configuration, this the container's, which changes whenever the service does.
        labels["com.docker.compose.config-hash"] = Convert.ToHexStringLower(
            System.Security.Cryptography.SHA256.HashData(System.Text.Json.JsonSerializer.SerializeToUtf8Bytes(body))
        );
        return body;
    }

    private static string? OwnerOf(ComposeService service) =>
        service.NetworkMode is { } mode && mode.StartsWith("service:", StringComparison.Ordinal)
            ? mode["service:".Length..]
            : null;

    /// <summary>The service named by network_mode "service:NAME".</summary>
    private static string NetworkOwner(string service, string mode) =>
        mode.StartsWith("service:", StringComparison.Ordinal) && mode.Length > "service:".Length
            ? mode["service:".Length..]
            : throw new InvalidOperationException(
                $"service {service}: network_mode \"{mode}\" is not supported; only \"bridge\" and \"service:NAME\" (share that service's network namespace)"
            );

    /// <summary>A bind mount "HOST:CONTAINER[:MODE]" with an absolute host path (a named volume would outlive the run unlabelled).</summary>
    private static string Bind(string service, string volume)
    {
        var source = volume.Split(':')[0];
        if (!Path.IsPathRooted(source))
        {
            throw new InvalidOperationException(
                $"service {service}: volume \"{volume}\" is not a bind mount of an absolute path; only those are supported"
            );
        }
        // Compose writes the default mode out; so does this, so both make the same container.
        return volume.Split(':').Length == 2 ? $"{volume}:rw" : volume;
    }

    /// <summary>"[IP:][HOST_PORT:]CONTAINER_PORT[/PROTOCOL]", as compose's short syntax (no ranges).</summary>
    private static (string ContainerPort, string HostIp, string HostPort) Port(string service, string port)
    {
        var match = PortPattern().Match(port);
        if (!match.Success)
        {
            throw new InvalidOperationException(
                $"service {service}: port \"{port}\" is not [IP:][HOST_PORT:]CONTAINER_PORT[/PROTOCOL]"
            );
        }
        var protocol = match.Groups["proto"].Success ? match.Groups["proto"].Value : "tcp";
        return (
            $"{match.Groups["container"].Value}/{protocol}",
            match.Groups["ip"].Value.Trim('[', ']'),
            match.Groups["host"].Value
        );
    }

    /// <summary>Compose durations: "5s", "1m30s", "500ms", "1h".</summary>
    public static TimeSpan Duration(string service, string text)
    {
        var parts = DurationPattern().Matches(text);
        if (parts.Count == 0 || string.Concat(parts.Select(p => p.Value)) != text)
        {
            throw new InvalidOperationException(
                $"service {service}: stop_grace_period \"{text}\" is not a duration such as 5s or 1m30s"
            );
        }
        return parts.Aggregate(
            TimeSpan.Zero,
            (sum, p) =>
            {
                var value = double.Parse(p.Groups["n"].Value, CultureInfo.InvariantCulture);
                return sum
                    + p.Groups["unit"].Value switch
                    {
                        "h" => TimeSpan.FromHours(value),
                        "m" => TimeSpan.FromMinutes(value),
                        "s" => TimeSpan.FromSeconds(value),
                        "ms" => TimeSpan.FromMilliseconds(value),
                        "us" => TimeSpan.FromMicroseconds(value),
                        _ => TimeSpan.FromTicks((long)(value / 100)),
                    };
            }
        );
    }

    /// <summary>Compose byte sizes: "1g", "256m", "512mb", "1024k", "65536" (powers of 1024, any case).</summary>
    public static long Bytes(string service, string text)
    {
        var match = BytesPattern().Match(text);
        if (!match.Success)
        {
            throw new InvalidOperationException(
                $"service {service}: shm_size \"{text}\" is not a size such as 256m or 1g"
            );
        }
        var shift = match.Groups["unit"].Value.ToLowerInvariant() switch
        {
            "k" => 10,
            "m" => 20,
            "g" => 30,
            _ => 0,
        };
        return long.Parse(match.Groups["n"].Value, CultureInfo.InvariantCulture) << shift;
    }

    [GeneratedRegex(@"^(?<n>[0-9]+)\s*(?:(?<unit>[bkmgBKMG])[bB]?)?$")]
    private static partial Regex BytesPattern();

    [GeneratedRegex(
        @"^(?:(?:(?<ip>[0-9.]+|\[[0-9a-fA-F:]+\]):)?(?<host>[0-9]*):)?(?<container>[0-9]+)(?:/(?<proto>tcp|udp|sctp))?$"
    )]
    private static partial Regex PortPattern();

    [GeneratedRegex(@"(?<n>[0-9]+(?:\.[0-9]+)?)(?<unit>ms|us|ns|h|m|s)")]
    private static partial Regex DurationPattern();
}
