using System.Security.Cryptography;
using System.Text.Json;
using System.Text;

namespace Lightning.Bench.Docker;

/// <summary>
/// Which engine a run talks to, resolved once the way the docker CLI does (DOCKER_HOST, else DOCKER_CONTEXT, else the
/// config's currentContext, else the local socket), so the API client and compose are handed the same host.
/// </summary>
/// <param name="Host">unix:///path or tcp://host:port.</param>
/// <param name="Source">Where the host came from, for messages ("DOCKER_HOST", "docker context 'ci'", "default").</param>
internal sealed record DockerEndpoint(string Host, string Source)
{
    public const string DefaultHost = "unix:///var/run/docker.sock";

    /// <summary>Whether the engine runs on this machine (a Unix socket): only then are process ids in its labels ours to check.</summary>
    public const string SupportedForms = "use unix:///path/to/docker.sock or tcp://host:port";

    public bool IsLocal => UnixSocketPath is not null;

    /// <summary>The socket of a unix:// host, else null.</summary>
    public string? UnixSocketPath => Host.StartsWith("unix://", StringComparison.Ordinal) ? Host["unix://".Length..] : null;

    /// <summary>host:port of a tcp:// host, else null.</summary>
    public string? TcpAddress => Host.StartsWith("tcp://", StringComparison.Ordinal) ? Host["tcp://".Length..].TrimEnd('/') : null;

    /// <summary>The environment compose and the docker CLI get, so they reach this engine and no other.</summary>
    public IReadOnlyDictionary<string, string?> Environment => new Dictionary<string, string?>
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
        var configDirectory = variable("DOCKER_CONFIG") is { Length: > 0 } config
            ? config
            : Path.Combine(variable("HOME") ?? System.Environment.GetFolderPath(System.Environment.SpecialFolder.UserProfile), ".docker");
        var context = variable("DOCKER_CONTEXT") is { Length: > 0 } named ? named : CurrentContext(configDirectory);
        if (context is null or "default")
        {
            return Checked(new DockerEndpoint(DefaultHost, "default"), variable);
        }
        var meta = Path.Combine(configDirectory, "contexts", "meta", Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(context))), "meta.json");
        if (!File.Exists(meta))
        {
            throw new DockerUnavailableException($"docker context '{context}' is not defined ({meta} is missing): run 'docker context ls' and 'docker context use NAME', or set DOCKER_HOST");
        }
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(meta));
            var endpoint = document.RootElement.GetProperty("Endpoints").GetProperty("docker");
            var contextHost = endpoint.GetProperty("Host").GetString();
            if (string.IsNullOrEmpty(contextHost))
            {
                throw new DockerUnavailableException($"docker context '{context}' names no engine host ({meta}): set DOCKER_HOST");
            }
            return Checked(new DockerEndpoint(contextHost, $"docker context '{context}'"), variable);
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            throw new DockerUnavailableException($"docker context '{context}' could not be read ({meta}: {e.Message}): repair it with 'docker context' or set DOCKER_HOST");
        }
    }

    private static string? CurrentContext(string configDirectory)
    {
        var config = Path.Combine(configDirectory, "config.json");
        if (!File.Exists(config))
        {
            return null;
        }
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(config));
            return document.RootElement.TryGetProperty("currentContext", out var current) && current.ValueKind == JsonValueKind.String
                ? current.GetString()
                : null;
        }
        catch (JsonException e)
        {
            throw new DockerUnavailableException($"{config} is not valid JSON ({e.Message}): repair it, or set DOCKER_HOST");
        }
    }

    private static DockerEndpoint Checked(DockerEndpoint endpoint, Func<string, string?> variable)
    {
        var host = endpoint.Host;
        if (endpoint.UnixSocketPath is null && endpoint.TcpAddress is null)
        {
            throw new DockerUnavailableException($"Docker host '{host}' (from {endpoint.Source}) is not supported: {SupportedForms}");
        }
        if (endpoint.TcpAddress is not null && variable("DOCKER_TLS_VERIFY") is { Length: > 0 } tls && tls != "0")
        {
            throw new DockerUnavailableException(
                $"Docker host '{host}' (from {endpoint.Source}) needs TLS (DOCKER_TLS_VERIFY is set), which this harness does not speak: use the engine's Unix socket");
        }
        return endpoint;
    }
}
