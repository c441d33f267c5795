using System.Globalization;
using System.Text.RegularExpressions;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Compose;

/// <summary>
/// Starts a generated compose model through the Engine API, the way compose would: a "PROJECT_default" bridge network,
/// one container per service named "PROJECT-SERVICE-1" and reachable by its service name, compose's labels (so
/// `docker compose -p PROJECT down` and label sweeps find them), containers created together and started in
/// depends_on order. Down removes them by label, all at once. It covers every key <see cref="ComposeService"/> accepts
/// (fragments cannot carry others), and interpolates variables as compose does (<see cref="ComposeInterpolation"/>).
/// </summary>
public sealed partial class EngineComposeRunner(DockerEngine engine, Func<string, string?>? variables = null) : IComposeRunner
{
    public const string ServiceLabel = "com.docker.compose.service";
    private readonly Func<string, string?> variables = variables ?? Environment.GetEnvironmentVariable;

    public string Version => "Docker engine API (compose model)";

    public static string NetworkName(string project) => $"{project}_default";

    public static string ContainerName(string project, string service) => $"{project}-{service}-1";

    public async Task UpAsync(string project, string file, ComposeFile model, CancellationToken ct = default)
    {
        var bodies = model.Services.ToDictionary(s => s.Key, s => CreateBody(project, file, s.Key, s.Value));
        var order = StartOrder(model);
        var networkLabels = new Dictionary<string, string>(model.Networks?.GetValueOrDefault("default")?.Labels ?? new())
        {
            [RunLabels.ComposeProject] = project,
            ["com.docker.compose.network"] = "default",
        };
        await engine.CreateNetworkAsync(NetworkName(project), networkLabels, ct);
        var created = await Task.WhenAll(model.Services.Keys.Select(async name => (name, id: await engine.CreateContainerAsync(ContainerName(project, name), bodies[name], ct))));
        var ids = created.ToDictionary(c => c.name, c => c.id);
        foreach (var layer in order)
        {
            await Task.WhenAll(layer.Select(async name =>
            {
                try
                {
                    await engine.StartContainerAsync(ids[name], ct);
                }
                catch (DockerApiException e)
                {
                    throw new InvalidOperationException($"service {name} ({bodies[name]["Image"]}) could not start: {e.Message}", e);
                }
            }));
        }
    }

    public async Task DownAsync(string project, string file, CancellationToken ct = default) =>
        await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.ComposeProject}={project}", ct);

    /// <summary>The services in layers: each layer's services depend only on earlier layers'.</summary>
    public static IReadOnlyList<IReadOnlyList<string>> StartOrder(ComposeFile model)
    {
        var remaining = model.Services.ToDictionary(s => s.Key, s => (s.Value.DependsOn ?? []).ToHashSet());
        foreach (var (name, needs) in remaining)
        {
            if (needs.FirstOrDefault(n => !model.Services.ContainsKey(n)) is { } unknown)
            {
                throw new InvalidOperationException($"service {name} depends on {unknown}, which is not a service of the topology");
            }
        }
        var layers = new List<IReadOnlyList<string>>();
        var started = new HashSet<string>();
        while (remaining.Count > 0)
        {
            var layer = remaining.Where(s => s.Value.IsSubsetOf(started)).Select(s => s.Key).Order(StringComparer.Ordinal).ToList();
            if (layer.Count == 0)
            {
                throw new InvalidOperationException($"the services' depends_on form a cycle: {string.Join(", ", remaining.Keys)}");
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
            var probe = service.Clone();
            probe.Image ??= "image";
            probe.Volumes = null; // the generator sets the mounts
            try
            {
                CreateBody("check", "/check/docker-compose.yml", "service", probe, variables ?? Environment.GetEnvironmentVariable);
            }
            catch (Exception e) when (e is FormatException or InvalidOperationException)
            {
                throw new InvalidDataException($"compose fragment {file}: {e.Message}", e);
            }
        }
    }

    /// <summary>The Engine API create body of one service.</summary>
    public Dictionary<string, object> CreateBody(string project, string file, string name, ComposeService service) =>
        CreateBody(project, file, name, service, variables);

    private static Dictionary<string, object> CreateBody(string project, string file, string name, ComposeService service, Func<string, string?> variables)
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
        var host = new Dictionary<string, object>
        {
            ["NetworkMode"] = network,
            ["Binds"] = (service.Volumes ?? []).Select(v => Bind(name, Text(v))).ToList(),
            ["PortBindings"] = new Dictionary<string, object>(),
        };
        var body = new Dictionary<string, object>
        {
            ["Image"] = image,
            ["Labels"] = labels,
            ["HostConfig"] = host,
            ["NetworkingConfig"] = new Dictionary<string, object>
            {
                ["EndpointsConfig"] = new Dictionary<string, object> { [network] = new Dictionary<string, object> { ["Aliases"] = new[] { name } } },
            },
        };
        if (service.User is { } user)
        {
            body["User"] = Text(user);
        }
        if (service.Entrypoint is { } entrypoint)
        {
            body["Entrypoint"] = entrypoint.Select(Text).ToList();
        }
        if (service.Command is { } command)
        {
            body["Cmd"] = command.Select(Text).ToList();
        }
        if (service.Environment is { Count: > 0 } environment)
        {
            body["Env"] = environment.Select(e => $"{e.Key}={Text(e.Value)}").ToList();
        }
        if (service.StopGracePeriod is { } grace)
        {
            body["StopTimeout"] = (int)Math.Ceiling(Duration(name, Text(grace)).TotalSeconds);
        }
        if (service.Ports is { Count: > 0 } ports)
        {
            var bindings = ports.Select(p => Port(name, Text(p))).ToList();
            body["ExposedPorts"] = bindings.Select(b => b.ContainerPort).Distinct().ToDictionary(p => p, _ => new Dictionary<string, object>());
            host["PortBindings"] = bindings.GroupBy(b => b.ContainerPort).ToDictionary(
                g => g.Key, g => g.Select(b => new Dictionary<string, string> { ["HostIp"] = b.HostIp, ["HostPort"] = b.HostPort }).ToList());
        }
        if (service.Init is { } init)
        {
            host["Init"] = init;
        }
        if (service.Privileged is { } privileged)
        {
            host["Privileged"] = privileged;
        }
        if (service.CapAdd is { Count: > 0 } caps)
        {
            host["CapAdd"] = caps.Select(Text).ToList();
        }
        if (service.SecurityOpt is { Count: > 0 } security)
        {
            host["SecurityOpt"] = security.Select(Text).ToList();
        }
        return body;
    }

    /// <summary>A bind mount "HOST:CONTAINER[:MODE]" with an absolute host path (a named volume would outlive the run unlabelled).</summary>
    private static string Bind(string service, string volume)
    {
        var source = volume.Split(':')[0];
        if (!Path.IsPathRooted(source))
        {
            throw new InvalidOperationException($"service {service}: volume \"{volume}\" is not a bind mount of an absolute path; only those are supported");
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
            throw new InvalidOperationException($"service {service}: port \"{port}\" is not [IP:][HOST_PORT:]CONTAINER_PORT[/PROTOCOL]");
        }
        var protocol = match.Groups["proto"].Success ? match.Groups["proto"].Value : "tcp";
        return ($"{match.Groups["container"].Value}/{protocol}", match.Groups["ip"].Value.Trim('[', ']'), match.Groups["host"].Value);
    }

    /// <summary>Compose durations: "5s", "1m30s", "500ms", "1h".</summary>
    public static TimeSpan Duration(string service, string text)
    {
        var parts = DurationPattern().Matches(text);
        if (parts.Count == 0 || string.Concat(parts.Select(p => p.Value)) != text)
        {
            throw new InvalidOperationException($"service {service}: stop_grace_period \"{text}\" is not a duration such as 5s or 1m30s");
        }
        return parts.Aggregate(TimeSpan.Zero, (sum, p) =>
        {
            var value = double.Parse(p.Groups["n"].Value, CultureInfo.InvariantCulture);
            return sum + p.Groups["unit"].Value switch
            {
                "h" => TimeSpan.FromHours(value),
                "m" => TimeSpan.FromMinutes(value),
                "s" => TimeSpan.FromSeconds(value),
                "ms" => TimeSpan.FromMilliseconds(value),
                "us" => TimeSpan.FromMicroseconds(value),
                _ => TimeSpan.FromTicks((long)(value / 100)),
            };
        });
    }

    [GeneratedRegex(@"^(?:(?:(?<ip>[0-9.]+|\[[0-9a-fA-F:]+\]):)?(?<host>[0-9]*):)?(?<container>[0-9]+)(?:/(?<proto>tcp|udp|sctp))?$")]
    private static partial Regex PortPattern();

    [GeneratedRegex(@"(?<n>[0-9]+(?:\.[0-9]+)?)(?<unit>ms|us|ns|h|m|s)")]
    private static partial Regex DurationPattern();
}
