using System.Text.Json;
using Docker.DotNet;

namespace Lightning.Bench.Docker;

/// <summary>
/// Which engine a run talks to, resolved once the way the docker CLI does (DOCKER_HOST, else DOCKER_CONTEXT, else the
/// config's currentContext, else the local socket), so the API client and compose are handed the same host. Docker.DotNet's
/// <see cref="DockerConfig"/> reads the contexts; this adds where the host came from and one line that says what to do.
/// </summary>
/// <param name="Host">unix:///path or tcp://host:port.</param>
/// <param name="Source">Where the host came from, for messages ("DOCKER_HOST", "docker context 'ci'", "default").</param>
internal sealed record DockerEndpoint(string Host, string Source)
{
    public const string DefaultHost = "unix:///var/run/docker.sock";

    public const string SupportedForms = "use unix:///path/to/docker.sock or tcp://host:port";

    /// <summary>Whether the engine runs on this machine (a Unix socket): only then are process ids in its labels ours to check.</summary>
    public bool IsLocal => UnixSocketPath is not null;

    /// <summary>The socket of a unix:// host, else null.</summary>
    public string? UnixSocketPath =>
        Host.StartsWith("unix://", StringComparison.Ordinal) ? Host["unix://".Length..] : null;

    /// <summary>host:port of a tcp:// host, else null.</summary>
    public string? TcpAddress =>
        Host.StartsWith("tcp://", StringComparison.Ordinal) ? Host["tcp://".Length..].TrimEnd('/') : null;

    /// <summary>The environment compose and the docker CLI get, so they reach this engine and no other.</summary>
    public IReadOnlyDictionary<string, string?> Environment =>
        new Dictionary<string, string?>
        {
            ["DOCKER_HOST"] = Host,
            // DOCKER_HOST wins over a context anyway; removing it keeps the CLI from warning about both.
            ["DOCKER_CONTEXT"] = null,
        };

    /// <summary>The engine of this process's environment.</summary>
    public static DockerEndpoint Resolve() => Resolve(System.Environment.GetEnvironmentVariable);

    /// <param name="variable">Reads an environment variable (tests pass their own).</param>
    public static DockerEndpoint Resolve(Func<string, string?> variable)
    {
        if (variable("DOCKER_HOST") is { Length: > 0 } host)
        {
            return Checked(new DockerEndpoint(host, "DOCKER_HOST"), variable);
        }
        var settings = new DockerCliVariables(variable);
        var config = new DockerConfig(settings);
        var context = variable("DOCKER_CONTEXT") is { Length: > 0 } named ? named : CurrentContext(config);
        if (context is null or "" or "default")
        {
            return Checked(new DockerEndpoint(DefaultHost, "default"), variable);
        }
        try
        {
            return Checked(
                new DockerEndpoint(config.GetEndpoint(context).OriginalString, $"docker context '{context}'"),
                variable
            );
        }
        catch (DockerConfigurationException e)
            when (e.InnerException is FileNotFoundException or DirectoryNotFoundException)
        {
            throw new DockerUnavailableException(
                $"docker context '{context}' is not defined in {settings.DockerConfig}: run 'docker context ls' and 'docker context use NAME', or set DOCKER_HOST"
            );
        }
        catch (DockerConfigurationException e)
        {
            throw new DockerUnavailableException(
                $"docker context '{context}' could not be read ({e.Message} {e.InnerException?.Message}): repair it with 'docker context' or set DOCKER_HOST"
            );
        }
    }

    /// <summary>The config's currentContext (the library keeps its own reading private).</summary>
    private static string? CurrentContext(DockerConfig config)
    {
        if (!config.Exists)
        {
            return null;
        }
        try
        {
            using var document = config.Parse();
            return
                document.RootElement.TryGetProperty("currentContext", out var current)
                && current.ValueKind == JsonValueKind.String
                ? current.GetString()
                : null;
        }
        catch (JsonException e)
        {
            throw new DockerUnavailableException(
                $"{config.FullName} is not valid JSON ({e.Message}): repair it, or set DOCKER_HOST"
            );
        }
    }

    private static DockerEndpoint Checked(DockerEndpoint endpoint, Func<string, string?> variable)
    {
        var host = endpoint.Host;
        if (endpoint.UnixSocketPath is null && endpoint.TcpAddress is null)
        {
            throw new DockerUnavailableException(
                $"Docker host '{host}' (from {endpoint.Source}) is not supported: {SupportedForms}"
            );
        }
        if (endpoint.TcpAddress is not null && variable("DOCKER_TLS_VERIFY") is { Length: > 0 } tls && tls != "0")
        {
            throw new DockerUnavailableException(
                $"Docker host '{host}' (from {endpoint.Source}) needs TLS (DOCKER_TLS_VERIFY is set), which this harness does not speak: use the engine's Unix socket"
            );
        }
        return endpoint;
    }
}
