using Lightning.Bench.Compose;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Docker;

/// <summary>Runs `docker compose` (v2) or, where only that exists, `docker-compose` (v1) with argument lists.</summary>
public sealed class ComposeCli : IComposeRunner
{
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(5);
    private readonly string fileName;
    private readonly IReadOnlyList<string> prefix;
    private readonly IReadOnlyDictionary<string, string?> environment;

    private ComposeCli(string fileName, IReadOnlyList<string> prefix, string version, DockerEndpoint endpoint)
    {
        this.fileName = fileName;
        this.prefix = prefix;
        environment = endpoint.Environment;
        Version = version;
    }

    /// <summary>e.g. "docker compose 2.29.1" or "docker-compose 1.29.2".</summary>
    public string Version { get; }

    /// <summary>The compose commands tried, in order: the v2 plugin, then v1.</summary>
    public static readonly IReadOnlyList<(string File, string[] Prefix)> Candidates = [("docker", ["compose"]), ("docker-compose", [])];

    /// <summary>Finds compose and points it at <paramref name="endpoint"/>, the engine the harness's API client uses.</summary>
    public static Task<ComposeCli> DetectAsync(DockerEndpoint endpoint, CancellationToken ct = default) => DetectAsync(endpoint, Candidates, ct);

    public static async Task<ComposeCli> DetectAsync(DockerEndpoint endpoint, IReadOnlyList<(string File, string[] Prefix)> candidates, CancellationToken ct = default)
    {
        foreach (var (file, prefix) in candidates)
        {
            try
            {
                var result = await ProcessRunner.RunAsync(file, [.. prefix, "version", "--short"], TimeSpan.FromSeconds(30), endpoint.Environment, ct: ct);
                if (result.Succeeded && result.StandardOutput.Trim().Length > 0)
                {
                    return new ComposeCli(file, prefix, $"{string.Join(' ', [file, .. prefix])} {result.StandardOutput.Trim()}", endpoint);
                }
            }
            catch (ToolNotFoundException)
            {
            }
        }
        throw new DockerUnavailableException(
            "neither 'docker compose' (v2) nor 'docker-compose' (v1) was found: install the Docker Compose plugin (or Debian's docker-compose package)");
    }

    /// <summary>compose up on the written file (the model is what the file holds); throws with compose's last lines on failure.</summary>
    public async Task UpAsync(string project, string file, ComposeFile model, CancellationToken ct = default)
    {
        var up = await UpAsync(project, file, ct);
        if (!up.Succeeded)
        {
            throw new InvalidOperationException($"{Version} could not start the topology: {up.Tail(5)}");
        }
    }

    async Task IComposeRunner.DownAsync(string project, string file, CancellationToken ct)
    {
        var down = await DownAsync(project, file, ct);
        if (!down.Succeeded)
        {
            throw new InvalidOperationException($"{Version} down failed: {down.Tail()}");
        }
    }

    public Task<ProcessResult> UpAsync(string project, string file, CancellationToken ct = default) =>
        RunAsync(project, file, ["up", "--detach", "--no-build"], ct);

    public Task<ProcessResult> DownAsync(string project, string file, CancellationToken ct = default) =>
        RunAsync(project, file, ["down", "--volumes", "--remove-orphans", "--timeout", "5"], ct);

    public Task<ProcessResult> ConfigAsync(string project, string file, CancellationToken ct = default) =>
        RunAsync(project, file, ["config", "--quiet"], ct);

    private Task<ProcessResult> RunAsync(string project, string file, IReadOnlyList<string> arguments, CancellationToken ct) =>
        ProcessRunner.RunAsync(fileName, [.. prefix, "--project-name", project, "--file", file, .. arguments], DefaultTimeout, environment, ct: ct);
}
